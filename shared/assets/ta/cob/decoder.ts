import { FormatError } from '../../../errors.js';
import type { AssetContext, AssetDecoder } from '../../registry.js';
import type { AssetFact, TextView } from '../../view.js';
import { decompileProgram } from './decompiler.js';
import { opInfo } from './opcodes.js';
import { checkPieces, modelPathFor } from './pieces.js';
import { threeDoPieceNames } from '../3do.js';
import { printProgram } from './printer.js';
import { readCob, type CobFile } from './reader.js';

/**
 * The studio's view of a COB: its decompiled BOS (coloured as 'bos') beside its facts. A script the
 * decompiler cannot express as BOS (code no common compiler writes) is shown as a disassembly instead,
 * with the reason as a warning. When the install holds the unit's model (objects3d/NAME.3do), the
 * script's pieces are checked against the model's object names (read alone, without building the mesh):
 * which pieces it has, and which it lacks (each of those also a warning).
 */
export const cobDecoder: AssetDecoder = {
  id: 'cob',
  accepts(name, head) {
    if (!/\.cob$/i.test(name) || head.length < 4) return false;
    const version = head[0]! | (head[1]! << 8) | (head[2]! << 16) | (head[3]! << 24);
    return version === 4 || version === 6;
  },
  async view(name, bytes, context) {
    const cob = readCob(bytes, name);
    const view = cobView(cob);
    const model = await modelPieces(name, context, view.warnings);
    if (model) {
      const check = checkPieces(cob.pieces, model.pieces);
      const missing = new Set(check.missing);
      const found = cob.pieces.filter((p) => !missing.has(p));
      view.facts.push({
        label: 'Model',
        value: `${model.path}: ${found.length} of ${cob.pieces.length} pieces found, ${check.unused.length} of its ${model.pieces.length} objects not animated`,
      });
      view.facts.push({ label: 'Pieces in the model', value: found.length ? found.join(', ') : 'none' });
      view.facts.push({ label: 'Pieces missing from the model', value: check.missing.length ? check.missing.join(', ') : 'none' });
      for (const piece of check.missing) view.warnings.push(`piece ${piece} is not in ${model.path}`);
    }
    return view;
  },
};

/** The object names of the unit's model, or null when the install has no such model. */
async function modelPieces(name: string, context: AssetContext, warnings: string[]): Promise<{ path: string; pieces: string[] } | null> {
  const path = modelPathFor(name);
  const bytes = await context.readFile(path);
  if (!bytes) return null;
  try {
    return { path, pieces: threeDoPieceNames(bytes, path) };
  } catch (err) {
    // The model is a side check: a damaged 3DO must not hide the script.
    if (!(err instanceof FormatError)) throw err;
    warnings.push(`pieces not checked: ${err.message}`);
    return null;
  }
}

export function cobFacts(cob: CobFile): AssetFact[] {
  const facts: AssetFact[] = [
    { label: 'Version', value: cob.version === 6 ? '6 (TA: Kingdoms)' : '4 (TA)' },
    { label: 'Scripts', value: `${cob.scripts.length}: ${cob.scripts.map((s) => s.name).join(', ')}` },
    { label: 'Pieces', value: `${cob.pieces.length}: ${cob.pieces.join(', ')}` },
    { label: 'Static variables', value: String(cob.staticVars) },
    { label: 'Code', value: `${cob.code.length} words` },
  ];
  if (cob.version === 6) facts.push({ label: 'Sounds', value: `${cob.sounds.length}: ${cob.sounds.join(', ')}` });
  return facts;
}

export function cobView(cob: CobFile): TextView {
  const warnings: string[] = [];
  let text: string;
  try {
    text = printProgram(decompileProgram(cob));
  } catch (err) {
    if (!(err instanceof FormatError)) throw err;
    warnings.push(`shown as a disassembly: ${err.message}`);
    text = disassemble(cob);
  }
  return { kind: 'text', format: `COB script (version ${cob.version})`, facts: cobFacts(cob), warnings, text, language: 'bos' };
}

/** One line per instruction, as BOS comments so the view stays BOS-coloured; unknown words shown raw. */
export function disassemble(cob: CobFile): string {
  const out: string[] = [`// ${cob.pieces.length} pieces: ${cob.pieces.join(', ')}`, `// ${cob.staticVars} static variables`];
  for (const script of cob.scripts) {
    out.push('', `// ${script.name} (words ${script.start}..${script.end - 1})`);
    let pc = script.start;
    while (pc < script.end) {
      const word = cob.code[pc]!;
      const info = opInfo(word);
      const count = info && pc + 1 + info.operands <= script.end ? info.operands : 0;
      const args = Array.from({ length: count }, (_, i) => cob.code[pc + 1 + i]! | 0);
      out.push(
        `//   ${String(pc).padStart(5)}  ${info ? info.name : `0x${word.toString(16).padStart(8, '0')}`}${args.length ? ' ' + args.join(' ') : ''}`,
      );
      pc += 1 + count;
    }
  }
  return out.join('\n') + '\n';
}
