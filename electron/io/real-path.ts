import { lstat, realpath } from 'node:fs/promises';
import { lstatSync } from 'node:fs';
import nodePath from 'node:path';

/**
 * The real path of `abs`, or of its nearest existing ancestor with the rest appended: where a path that
 * does not exist yet would land once made (a symbolic link among its existing parents is followed).
 */
export async function realOrNearest(abs: string, path: typeof nodePath.posix = nodePath): Promise<string> {
  let head = abs;
  const tail: string[] = [];
  for (;;) {
    try {
      const real = await realpath(head);
      return tail.length ? path.join(real, ...tail.reverse()) : real;
    } catch {
      const parent = path.dirname(head);
      if (parent === head) return abs;
      tail.push(path.basename(head));
      head = parent;
    }
  }
}

/** Whether `child` is `parent` or lies under it (both absolute and normalised). */
export function isInside(parent: string, child: string): boolean {
  const rel = nodePath.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !nodePath.isAbsolute(rel));
}

/** A write refused because a symbolic link sits on its way (in the target folder, planted before or during the write). */
export class LinkRefusal extends Error {
  readonly code = 'ELINK';
  constructor(readonly path: string) {
    super(`${path} is a symbolic link; extraction does not follow links`);
  }
}

/**
 * Refuse when any existing component of `file` below `root` (the folders and the file itself) is a
 * symbolic link. `checked` remembers folders already seen to be plain, so each is looked at once.
 */
export async function refuseLinksBelow(root: string, file: string, checked: Set<string>): Promise<void> {
  for (const part of componentsBelow(root, file)) {
    if (checked.has(part)) continue;
    const info = await lstat(part).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (info === null) return;
    if (info.isSymbolicLink()) throw new LinkRefusal(part);
    if (part !== file) checked.add(part);
  }
}

/** The synchronous twin of refuseLinksBelow, for worker threads that write with synchronous calls. */
export function refuseLinksBelowSync(root: string, file: string, checked: Set<string>): void {
  for (const part of componentsBelow(root, file)) {
    if (checked.has(part)) continue;
    // No entry is an answer, not an error: building an exception for it cost more than the lstat.
    const info = lstatSync(part, { throwIfNoEntry: false });
    if (info === undefined) return;
    if (info.isSymbolicLink()) throw new LinkRefusal(part);
    if (part !== file) checked.add(part);
  }
}

function componentsBelow(root: string, file: string): string[] {
  const rel = nodePath.relative(root, file);
  if (rel === '' || rel.startsWith('..') || nodePath.isAbsolute(rel)) return [];
  const parts = rel.split(nodePath.sep);
  const out: string[] = [];
  let at = root;
  for (const p of parts) {
    at = nodePath.join(at, p);
    out.push(at);
  }
  return out;
}
