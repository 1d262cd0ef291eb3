import picomatch from 'picomatch/posix.js';

/**
 * Globs over archive paths, the same on every side (the CLI's `-p`, `mount ls`, the studio's filters):
 * picomatch with bash's rules (`**` across folders, `[!x]` classes, extglobs like `!(*.fbi)`), ignoring
 * case like every lookup here. A pattern without a slash matches the base name anywhere (`*.fbi` finds
 * `units/ARMCOM.FBI`), as modders expect. The posix build: it never asks which OS it runs on.
 */
export function globMatcher(glob: string): (path: string) => boolean {
  const pattern = glob.replace(/\\/g, '/');
  return picomatch(pattern, { nocase: true, dot: true, posix: true, basename: !pattern.includes('/') });
}

/** Whether a query is a glob (has any of picomatch's special characters) rather than plain text. */
export function isGlob(query: string): boolean {
  return picomatch.scan(query).isGlob;
}

/** A path passes when any glob matches (all pass when there are none). */
export function pathMatcher(globs: readonly string[] | undefined): (path: string) => boolean {
  if (!globs || globs.length === 0) return () => true;
  const matchers = globs.map(globMatcher);
  return (path) => matchers.some((m) => m(path));
}
