import { BUILTIN_HEADERS } from './opcodes.js';
import { bosError, tokenize, type Token } from './lexer.js';

/**
 * The C-like preprocessor BOS sources use: `#include "file"`, `#define NAME body` and
 * `#define NAME(a, b) body`, `#undef`, `#ifdef`/`#ifndef`/`#if`/`#elif`/`#else`/`#endif`.
 * Includes come from `resolve` (the host looks in the including file's folder and the include folders);
 * exptype.h and sfxtype.h fall back to built-in copies of the standard headers.
 */

export interface IncludeFile {
  /** How the file is named in messages. */
  path: string;
  text: string;
}

/** Finds an included file by the name written in the source, relative to the file that includes it. */
export type IncludeResolver = (name: string, from: string) => Promise<IncludeFile | null> | IncludeFile | null;

interface Macro {
  params: string[] | null;
  body: Token[];
}

const MAX_INCLUDE_DEPTH = 32;
/** Tokens one source may expand to: a macro that doubles itself per use must not exhaust memory. */
const MAX_TOKENS = 2_000_000;

export async function preprocess(text: string, file: string, resolve: IncludeResolver = () => null): Promise<Token[]> {
  const macros = new Map<string, Macro>();
  const out: Token[] = [];

  const expand = (tokens: Token[], hidden: Set<string>, use: Token | null): Token[] => {
    const result: Token[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      const macro = t.type === 'word' && !hidden.has(t.text) ? macros.get(t.text) : undefined;
      if (!macro) {
        result.push(t);
        continue;
      }
      // Messages about expanded tokens name the line where the macro was used.
      const at = use ?? t;
      let body = macro.body;
      if (macro.params) {
        if (tokens[i + 1]?.text !== '(') {
          result.push(t);
          continue;
        }
        const args: Token[][] = [[]];
        let depth = 0;
        let j = i + 2;
        for (; j < tokens.length; j++) {
          const a = tokens[j]!;
          if (a.text === '(' && a.type === 'punct') depth++;
          if (a.text === ')' && a.type === 'punct' && depth-- === 0) break;
          if (a.text === ',' && a.type === 'punct' && depth === 0) args.push([]);
          else args[args.length - 1]!.push(a);
        }
        if (j >= tokens.length) bosError(at.file, at.line, `the arguments of ${t.text}( are not closed`);
        if (macro.params.length === 0 && args.length === 1 && args[0]!.length === 0) args.pop();
        if (args.length !== macro.params.length)
          bosError(at.file, at.line, `${t.text} takes ${macro.params.length} argument(s), not ${args.length}`);
        const params = macro.params;
        body = body.flatMap((b) => {
          const k = b.type === 'word' ? params.indexOf(b.text) : -1;
          return k >= 0 ? expand(args[k]!, hidden, at) : [b];
        });
        i = j;
      }
      const inner = new Set(hidden).add(t.text);
      const expanded = expand(body, inner, at).map((b) => ({ ...b, file: at.file, line: at.line }));
      if (result.length + expanded.length > MAX_TOKENS) bosError(at.file, at.line, `${t.text} expands to more than ${MAX_TOKENS} tokens`);
      for (const e of expanded) result.push(e);
    }
    return result;
  };

  const run = async (source: string, name: string, depth: number): Promise<void> => {
    // Each frame: whether its lines are kept, whether one branch was already taken, whether #else was seen.
    const conditions: { active: boolean; taken: boolean; sawElse: boolean; line: number }[] = [];
    const active = () => conditions.every((c) => c.active);
    let pending: Token[] = [];
    const flush = () => {
      if (!pending.length) return;
      const first = pending[0]!;
      const expanded = expand(pending, new Set(), null);
      if (out.length + expanded.length > MAX_TOKENS) bosError(name, first.line, `the source expands to more than ${MAX_TOKENS} tokens`);
      for (const e of expanded) out.push(e);
      pending = [];
    };
    for (const t of tokenize(source, name)) {
      if (t.type !== 'directive') {
        if (active()) pending.push(t);
        continue;
      }
      flush();
      const m = /^([A-Za-z]+)\s*(.*)$/s.exec(t.text);
      const keyword = m?.[1]?.toLowerCase() ?? '';
      const rest = m?.[2] ?? '';
      const err = (message: string): never => bosError(name, t.line, message);
      if (keyword === 'ifdef' || keyword === 'ifndef') {
        const id = /^([A-Za-z_]\w*)/.exec(rest)?.[1] ?? err(`#${keyword} needs a name`);
        const defined = macros.has(id);
        const on = keyword === 'ifdef' ? defined : !defined;
        conditions.push({ active: on, taken: on, sawElse: false, line: t.line });
      } else if (keyword === 'if') {
        const on = active() && evaluate(rest, macros, err) !== 0;
        conditions.push({ active: on, taken: on, sawElse: false, line: t.line });
      } else if (keyword === 'elif') {
        const top = conditions[conditions.length - 1] ?? err('#elif without #if');
        if (top.sawElse) err('#elif after #else');
        const outer = conditions.slice(0, -1).every((c) => c.active);
        top.active = !top.taken && outer && evaluate(rest, macros, err) !== 0;
        top.taken ||= top.active;
      } else if (keyword === 'else') {
        const top = conditions[conditions.length - 1] ?? err('#else without #if');
        if (top.sawElse) err('a second #else');
        top.sawElse = true;
        top.active = !top.taken;
        top.taken = true;
      } else if (keyword === 'endif') {
        if (!conditions.pop()) err('#endif without #if');
      } else if (!active()) {
        continue;
      } else if (keyword === 'define') {
        const d = /^([A-Za-z_]\w*)(\(([^)]*)\))?(.*)$/s.exec(rest) ?? err('#define needs a name');
        const params =
          d[2] !== undefined
            ? d[3]!
                .split(',')
                .map((p) => p.trim())
                .filter((p) => p !== '')
            : null;
        if (params?.some((p) => !/^[A-Za-z_]\w*$/.test(p))) err(`bad parameter list in #define ${d[1]}`);
        macros.set(d[1]!, { params, body: tokenize(d[4] ?? '', name, t.line) });
      } else if (keyword === 'undef') {
        macros.delete(/^([A-Za-z_]\w*)/.exec(rest)?.[1] ?? err('#undef needs a name'));
      } else if (keyword === 'include') {
        const target = /^["<]([^">]+)[">]/.exec(rest)?.[1] ?? err('#include needs a "file" name');
        if (depth >= MAX_INCLUDE_DEPTH) err(`#include nested deeper than ${MAX_INCLUDE_DEPTH} (does ${target} include itself?)`);
        const found = (await resolve(target, name)) ?? builtin(target) ?? err(`cannot find include file "${target}"`);
        await run(found.text, found.path, depth + 1);
      } else if (keyword === 'pragma' || keyword === 'error' || keyword === 'warning') {
        if (keyword === 'error') err(`#error ${rest}`);
      } else {
        err(`unknown directive #${keyword || t.text}`);
      }
    }
    flush();
    const open = conditions[conditions.length - 1];
    if (open) bosError(name, open.line, 'this #if has no #endif');
  };

  await run(text, file, 0);
  return out;
}

function builtin(name: string): IncludeFile | null {
  const base = name.replace(/^.*[\\/]/, '').toLowerCase();
  const text = BUILTIN_HEADERS[base];
  return text === undefined ? null : { path: `<built-in ${base}>`, text };
}

/** An `#if` expression: integers, macro names (undefined ones are 0), defined(X), ! && || == != < > <= >= + -. */
function evaluate(text: string, macros: Map<string, Macro>, err: (m: string) => never): number {
  const tokens = tokenize(text, '#if').filter((t) => t.type !== 'directive');
  let i = 0;
  const peek = () => tokens[i]?.text;
  const primary = (): number => {
    const t = tokens[i++] ?? err('#if expression ends early');
    if (t.text === '!') return primary() ? 0 : 1;
    if (t.text === '-') return -primary();
    if (t.text === '(') {
      const v = or();
      if (tokens[i++]?.text !== ')') err('#if expression misses a )');
      return v;
    }
    if (t.type === 'number') return Number(t.text) | 0;
    if (t.type === 'word' && t.text === 'defined') {
      const paren = peek() === '(';
      if (paren) i++;
      const id = tokens[i++] ?? err('defined needs a name');
      if (paren && tokens[i++]?.text !== ')') err('defined( misses a )');
      return macros.has(id.text) ? 1 : 0;
    }
    if (t.type === 'word') {
      const m = macros.get(t.text);
      const body = m?.body[0];
      return m && !m.params && m.body.length === 1 && body?.type === 'number' ? Number(body.text) | 0 : 0;
    }
    return err(`unexpected ${t.text} in #if`);
  };
  const binary = (next: () => number, ops: Record<string, (a: number, b: number) => number>) => (): number => {
    let v = next();
    for (let op = peek(); op !== undefined && ops[op]; op = peek()) {
      i++;
      v = ops[op]!(v, next());
    }
    return v;
  };
  const additive = binary(primary, { '+': (a, b) => a + b, '-': (a, b) => a - b });
  const compare = binary(additive, {
    '<': (a, b) => +(a < b),
    '>': (a, b) => +(a > b),
    '<=': (a, b) => +(a <= b),
    '>=': (a, b) => +(a >= b),
  });
  const equality = binary(compare, { '==': (a, b) => +(a === b), '!=': (a, b) => +(a !== b) });
  const and = binary(equality, { '&&': (a, b) => +(a !== 0 && b !== 0) });
  const or = binary(and, { '||': (a, b) => +(a !== 0 || b !== 0) });
  const v = or();
  if (i < tokens.length) err(`unexpected ${tokens[i]!.text} in #if`);
  return v;
}
