/**
 * TA's TDF/FBI text: `[NAME] { key=value; [SUB] { ... } }`, `//` and `/* *\/` comments, CRLF line ends.
 * The game reads sloppy files without complaint, so this parser is tolerant too: it never throws on text,
 * it recovers the way the game does and reports every liberty it took with the line it happened on.
 * Errors are problems that lose or misplace data (an unclosed section, a stray `}`, an unterminated
 * comment, a value outside any section); warnings are sloppiness the game shrugs off (a missing `;` or `{`).
 */

import { decodeCp1252 } from '../text/cp1252.js';

export interface TdfEntry {
  key: string;
  value: string;
  line: number;
}

export interface TdfSection {
  name: string;
  line: number;
  entries: TdfEntry[];
  sections: TdfSection[];
}

export interface TdfProblem {
  line: number;
  message: string;
  severity: 'error' | 'warning';
}

export interface TdfDocument {
  sections: TdfSection[];
  problems: TdfProblem[];
}

const NL = 10;
const SLASH = 47;
const STAR = 42;
const SEMI = 59;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/** TA's text is 8-bit Windows-1252: every byte is one character. */
export const decodeTdf = decodeCp1252;

export function parseTdf(input: string | Uint8Array): TdfDocument {
  const text = typeof input === 'string' ? input : decodeTdf(input);
  const length = text.length;
  const root: TdfSection[] = [];
  const problems: TdfProblem[] = [];
  const open: TdfSection[] = [];
  // A header whose `{` has not been seen yet: the next token decides whether the brace was just forgotten.
  let pending: TdfSection | null = null;
  let pos = 0;
  let line = 1;

  const report = (at: number, severity: TdfProblem['severity'], message: string) => problems.push({ line: at, message, severity });

  const openPending = (why: string) => {
    if (!pending) return;
    report(pending.line, 'warning', `missing '{' after [${pending.name}] (${why})`);
    open.push(pending);
    pending = null;
  };

  while (pos < length) {
    const c = text.charCodeAt(pos);
    if (c === NL) {
      line++;
      pos++;
      continue;
    }
    // Spaces, tabs, CR (so CRLF counts as one line end) and control bytes (some files end with ^Z or NULs) separate tokens.
    if (c <= 32 || c === 127) {
      pos++;
      continue;
    }
    if (c === SLASH && text.charCodeAt(pos + 1) === SLASH) {
      while (pos < length && text.charCodeAt(pos) !== NL) pos++;
      continue;
    }
    if (c === SLASH && text.charCodeAt(pos + 1) === STAR) {
      const startLine = line;
      const end = text.indexOf('*/', pos + 2);
      const stop = end < 0 ? length : end + 2;
      for (let i = pos; i < stop; i++) if (text.charCodeAt(i) === NL) line++;
      if (end < 0) report(startLine, 'error', "comment '/*' is never closed");
      pos = stop;
      continue;
    }
    if (c === OPEN_BRACKET) {
      if (pending) openPending(`another header follows on line ${line}`);
      let end = pos + 1;
      while (end < length && text.charCodeAt(end) !== CLOSE_BRACKET && text.charCodeAt(end) !== NL) end++;
      const closed = end < length && text.charCodeAt(end) === CLOSE_BRACKET;
      const name = text.slice(pos + 1, end).trim();
      if (!closed) report(line, 'error', `section header [${name} has no ']'`);
      if (name === '') report(line, 'warning', 'section header with an empty name');
      const section: TdfSection = { name, line, entries: [], sections: [] };
      (open.length > 0 ? open[open.length - 1]!.sections : root).push(section);
      pending = section;
      pos = closed ? end + 1 : end;
      continue;
    }
    if (c === OPEN_BRACE) {
      if (pending) {
        open.push(pending);
        pending = null;
      } else {
        report(line, 'error', "'{' without a section header before it");
        // Keep the braces balanced: the block's contents are read into a section nobody sees.
        open.push({ name: '', line, entries: [], sections: [] });
      }
      pos++;
      continue;
    }
    if (c === CLOSE_BRACE) {
      openPending(`'}' follows on line ${line}`);
      if (open.length === 0) report(line, 'error', "'}' without an open section");
      else open.pop();
      pos++;
      continue;
    }
    if (c === SEMI) {
      report(line, 'warning', "stray ';'");
      pos++;
      continue;
    }
    // A statement: `key=value` up to `;`, the end of the line, a `}` or a comment.
    const startLine = line;
    let end = pos;
    while (end < length) {
      const d = text.charCodeAt(end);
      if (d === SEMI || d === NL || d === CLOSE_BRACE) break;
      if (d === SLASH) {
        const e = text.charCodeAt(end + 1);
        if (e === SLASH || e === STAR) break;
      }
      end++;
    }
    const statement = text.slice(pos, end);
    const terminated = end < length && text.charCodeAt(end) === SEMI;
    pos = terminated ? end + 1 : end;
    const eq = statement.indexOf('=');
    if (eq < 0) {
      report(startLine, 'warning', `text without '=' ignored: ${JSON.stringify(statement.trim().slice(0, 40))}`);
      continue;
    }
    const key = statement.slice(0, eq).trim();
    const value = statement.slice(eq + 1).trim();
    openPending(`a value follows on line ${startLine}`);
    if (!terminated) report(startLine, 'warning', `missing ';' after ${key}=${value.slice(0, 40)}`);
    if (key === '') report(startLine, 'warning', `value without a key: =${value.slice(0, 40)}`);
    if (open.length === 0) {
      report(startLine, 'error', `${key}=${value.slice(0, 40)} is outside any section`);
      continue;
    }
    open[open.length - 1]!.entries.push({ key, value, line: startLine });
  }
  if (pending) openPending('end of file');
  for (let i = open.length - 1; i >= 0; i--) {
    const s = open[i]!;
    report(line, 'error', `section [${s.name}] opened on line ${s.line} is never closed`);
  }
  return { sections: root, problems };
}

/** Upper-case ASCII, the way TA compares names and keys. */
export function upperAscii(text: string): string {
  let ascii = true;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) ascii = false;
  // Pure ASCII (the usual case) can use the native routine; otherwise fold a-z only, so é stays é.
  return ascii ? text.toUpperCase() : text.replace(/[a-z]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) - 32));
}

/** The first section of this name (case-insensitive) among `sections`. */
export function findSection(sections: readonly TdfSection[], name: string): TdfSection | undefined {
  const want = upperAscii(name);
  return sections.find((s) => upperAscii(s.name) === want);
}

/** The value of the first entry with this key (case-insensitive), or undefined. */
export function getValue(section: TdfSection, key: string): string | undefined {
  const want = upperAscii(key);
  return section.entries.find((e) => upperAscii(e.key) === want)?.value;
}

/** The studio editor's and `workspace.checkTdf`'s view: ok unless an error was found. */
export function checkTdf(text: string): { ok: boolean; problems: TdfProblem[] } {
  const { problems } = parseTdf(text);
  return { ok: !problems.some((p) => p.severity === 'error'), problems };
}
