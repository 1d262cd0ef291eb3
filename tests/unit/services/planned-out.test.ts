import { describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { plannedOut } from '../../../electron/services/extract-plan.js';
import { safeRelativePath } from '../../../shared/paths.js';

describe('plannedOut', () => {
  it('is path.join of a resolved folder and a path found safe, for every shape of either', () => {
    const roots = ['/', '/tmp', '/tmp/out', resolve('relative/target'), resolve('/a//b/../c/')];
    const names = ['a.txt', 'units/ARMCOM.FBI', 'deep/er/still/x.3do', 'sp ace/ü.gaf', 'a//b', './a/./b', 'a\\b\\c.tnt', '.hidden/.x'];
    for (const root of roots)
      for (const name of names) {
        const relative = safeRelativePath(name)!;
        expect(relative, name).not.toBeNull();
        expect(plannedOut(root, relative), `${root} + ${name}`).toBe(join(root, relative));
      }
  });
});
