import { generateCode } from './codegen.js';
import { decompileProgram } from './decompiler.js';
import { parseProgram } from './parser.js';
import { preprocess, type IncludeResolver } from './preprocessor.js';
import { printProgram } from './printer.js';
import { readCob } from './reader.js';
import { writeCob } from './writer.js';
import type { BosProgram } from './ast.js';

export interface CompileOptions {
  /** How the source is named in messages (`FILE:LINE: message`). */
  file?: string;
  /** Finds `#include`d files; exptype.h and sfxtype.h fall back to built-in copies. */
  resolveInclude?: IncludeResolver;
  /** COB version to write: 4 (TA, the default) or 6 (TA:Kingdoms). */
  version?: 4 | 6;
}

/** BOS source to a parsed program tree. Errors are FormatErrors reading `FILE:LINE: message`. */
export async function parseBos(source: string, options: CompileOptions = {}): Promise<BosProgram> {
  const file = options.file ?? 'script.bos';
  return parseProgram(await preprocess(source, file, options.resolveInclude), file);
}

/** BOS source to COB bytes, the way Scriptor compiles it. */
export async function compileBos(source: string, options: CompileOptions = {}): Promise<Uint8Array> {
  const program = await parseBos(source, options);
  return writeCob(generateCode(program, options.version ?? (program.sounds.length ? 6 : 4)));
}

/** COB bytes to BOS source that compiles back to the same bytes (for COBs the common compilers made). */
export function decompileCob(bytes: Uint8Array, what = 'COB'): string {
  return printProgram(decompileProgram(readCob(bytes, what)));
}
