/**
 * The scanning loop behind the studio's syntax colours (TDF and BOS text): per line, `/* *\/` comments that
 * may span lines, runs of white space, then the language's own rules in order, else its fallback. It never
 * fails and loses nothing: the tokens of a line spell the line, so a damaged file still shows.
 */

export interface LineToken<K extends string> {
  kind: K;
  text: string;
}

/** A rule looks at the rest of a line and returns the tokens it starts with, or null when it does not apply. */
export type TokenRule<K extends string> = (rest: string) => LineToken<K>[] | null;

export interface LineLanguage<K extends string> {
  /** The kinds given to comments and to white space. */
  comment: K;
  space: K;
  rules: readonly TokenRule<K>[];
  /** What nothing recognised: one token that takes at least a character. */
  fallback: (rest: string) => LineToken<K>;
  /** A line read as a whole (outside a block comment), e.g. BOS preprocessor lines. */
  wholeLine?: (line: string) => LineToken<K>[] | null;
}

/** A rule for one regular expression anchored at the start (`^`), giving the match one kind. */
export function matchRule<K extends string>(pattern: RegExp, kind: K): TokenRule<K> {
  return (rest) => {
    const m = pattern.exec(rest);
    return m && m[0] !== '' ? [{ kind, text: m[0] }] : null;
  };
}

/** Tokens per line; a block comment that spans lines is split at each line end. */
export function tokenizeLines<K extends string>(text: string, language: LineLanguage<K>): LineToken<K>[][] {
  const out: LineToken<K>[][] = [];
  let inBlockComment = false;
  for (const line of text.split(/\r?\n/)) {
    const whole = inBlockComment ? null : language.wholeLine?.(line);
    if (whole) {
      out.push(whole);
      continue;
    }
    const tokens: LineToken<K>[] = [];
    let rest = line;
    while (rest.length > 0) {
      let taken: LineToken<K>[] | null = null;
      if (inBlockComment) {
        const end = rest.indexOf('*/');
        taken = [{ kind: language.comment, text: end < 0 ? rest : rest.slice(0, end + 2) }];
        inBlockComment = end < 0;
      } else if (rest.startsWith('/*')) {
        inBlockComment = true;
        taken = [{ kind: language.comment, text: '/*' }];
      } else {
        const space = /^\s+/.exec(rest);
        if (space) taken = [{ kind: language.space, text: space[0] }];
        for (let i = 0; taken === null && i < language.rules.length; i++) taken = language.rules[i]!(rest);
        taken ??= [language.fallback(rest)];
      }
      let length = 0;
      for (const t of taken) length += t.text.length;
      // A rule that consumed nothing would never end the line: take a character as plain text instead.
      if (length === 0) {
        taken = [{ kind: language.space, text: rest[0]! }];
        length = 1;
      }
      tokens.push(...taken);
      rest = rest.slice(length);
    }
    out.push(tokens);
  }
  return out;
}
