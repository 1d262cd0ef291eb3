/**
 * Path filtering for the Files screen, in the renderer so 60,000 paths filter without a round trip.
 * A query with a glob character (* ? [ {) is a glob: `*` and `?` stay within one folder, `**` crosses
 * folders, `[...]` is a class, `{a,b}` alternatives. A glob without `/` matches the file name alone (as
 * `*.fbi` is meant); with `/` it matches the whole path. Anything else is a case-insensitive substring of
 * the path. Matching ignores case, as the game does.
 */

const GLOB_CHARS = /[*?[{]/;
const REGEX_SPECIAL = /[\\^$.+()|]/;

export function isGlob(query: string): boolean {
  return GLOB_CHARS.test(query);
}

export function globToRegExp(glob: string): RegExp {
  let re = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // `**/` also matches no folder at all, so `**/x` finds a top-level x.
        if (glob[i + 2] === '/') {
          re += '(?:.*/)?';
          i += 2;
        } else {
          re += '.*';
          i += 1;
        }
      } else {
        re += '[^/]*';
      }
    } else if (c === '?') {
      re += '[^/]';
    } else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) {
        re += '\\[';
      } else {
        let body = glob.slice(i + 1, close).replace(/\\/g, '\\\\');
        if (body[0] === '!') body = '^' + body.slice(1);
        re += `[${body}]`;
        i = close;
      }
    } else if (c === '{') {
      braces++;
      re += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (c === ',' && braces > 0) {
      re += '|';
    } else if (REGEX_SPECIAL.test(c) || c === ']' || c === '}') {
      re += '\\' + c;
    } else {
      re += c;
    }
  }
  re += ')'.repeat(braces);
  return new RegExp(`^${re}$`, 'i');
}

/** Paths prepared once per tree, so each keystroke only scans. */
export interface PathIndex {
  paths: readonly string[];
  lower: string[];
  /** Where each path's file name starts. */
  nameStart: Int32Array;
  /** Path indices sorted by lower-case path: matches come out in this order. */
  order: Int32Array;
}

export function indexPaths(paths: readonly string[]): PathIndex {
  const lower = new Array<string>(paths.length);
  const nameStart = new Int32Array(paths.length);
  for (let i = 0; i < paths.length; i++) {
    lower[i] = paths[i].toLowerCase();
    nameStart[i] = paths[i].lastIndexOf('/') + 1;
  }
  const order = Int32Array.from(paths.keys());
  order.sort((a, b) => (lower[a] < lower[b] ? -1 : lower[a] > lower[b] ? 1 : 0));
  return { paths, lower, nameStart, order };
}

/** Indices of the paths the query matches, in their order; null for an empty query (everything). */
export function filterPaths(index: PathIndex, query: string): number[] | null {
  const q = query.trim();
  if (q === '') return null;
  const out: number[] = [];
  const { paths, lower, nameStart, order } = index;
  const n = order.length;
  if (!isGlob(q)) {
    const needle = q.toLowerCase();
    for (let k = 0; k < n; k++) {
      const i = order[k];
      if (lower[i].includes(needle)) out.push(i);
    }
    return out;
  }
  const re = globToRegExp(q);
  const wholePath = q.includes('/');
  for (let k = 0; k < n; k++) {
    const i = order[k];
    const subject = wholePath || nameStart[i] === 0 ? paths[i] : paths[i].slice(nameStart[i]);
    if (re.test(subject)) out.push(i);
  }
  return out;
}
