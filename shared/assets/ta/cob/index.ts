export { readCob, decodeInstructions, type CobFile, type CobScript, type Instruction } from './reader.js';
export { writeCob, type CobProgram } from './writer.js';
export { compileBos, decompileCob, parseBos, type CompileOptions } from './compiler.js';
export type { IncludeFile, IncludeResolver } from './preprocessor.js';
export { decompileProgram } from './decompiler.js';
export { printProgram } from './printer.js';
