import { HEADER_WORDS_V4, HEADER_WORDS_V6 } from './reader.js';

/** What the compiler produces: each script's own code, in file order. */
export interface CobProgram {
  version: 4 | 6;
  scripts: { name: string; code: number[] }[];
  pieces: string[];
  staticVars: number;
  sounds: string[];
}

/**
 * The bytes of a COB, laid out as Scriptor writes them: header, code, script entry table, script name
 * table, piece name table (then the sound name table for version 6), and the names back to back, scripts
 * first; header word 10 points at the first name.
 */
export function writeCob(program: CobProgram): Uint8Array {
  const headerWords = program.version === 6 ? HEADER_WORDS_V6 : HEADER_WORDS_V4;
  const codeLength = program.scripts.reduce((n, s) => n + s.code.length, 0);
  const names = [...program.scripts.map((s) => s.name), ...program.pieces, ...(program.version === 6 ? program.sounds : [])];
  const nameBytes = names.reduce((n, s) => n + s.length + 1, 0);
  const codeOffset = headerWords * 4;
  const entryOffset = codeOffset + codeLength * 4;
  const scriptNameOffset = entryOffset + program.scripts.length * 4;
  const pieceNameOffset = scriptNameOffset + program.scripts.length * 4;
  const soundNameOffset = pieceNameOffset + program.pieces.length * 4;
  const namesOffset = soundNameOffset + (program.version === 6 ? program.sounds.length * 4 : 0);
  const out = new Uint8Array(namesOffset + nameBytes);
  const view = new DataView(out.buffer);
  const header = [
    program.version,
    program.scripts.length,
    program.pieces.length,
    codeLength,
    program.staticVars,
    0,
    entryOffset,
    scriptNameOffset,
    pieceNameOffset,
    codeOffset,
    namesOffset,
  ];
  if (program.version === 6) header.push(soundNameOffset, program.sounds.length);
  header.forEach((w, i) => view.setUint32(i * 4, w, true));
  let word = 0;
  program.scripts.forEach((script, i) => {
    view.setUint32(entryOffset + i * 4, word, true);
    for (const w of script.code) view.setUint32(codeOffset + 4 * word++, w >>> 0, true);
  });
  let at = namesOffset;
  names.forEach((name, i) => {
    view.setUint32(scriptNameOffset + i * 4, at, true);
    for (let c = 0; c < name.length; c++) out[at++] = name.charCodeAt(c) & 0xff;
    out[at++] = 0;
  });
  return out;
}
