import picomatch from 'picomatch';

/**
 * Glob filters over archive paths, case-insensitive like every lookup here. A pattern without a slash
 * matches the base name anywhere (`*.fbi` finds `units/ARMCOM.FBI`), as modders expect from `-p`.
 */
export function pathMatcher(globs: readonly string[] | undefined): (path: string) => boolean {
  if (!globs || globs.length === 0) return () => true;
  const matchers = globs.map((g) => picomatch(g.replace(/\\/g, '/'), { nocase: true, dot: true, basename: !g.includes('/') }));
  return (path) => matchers.some((m) => m(path));
}
