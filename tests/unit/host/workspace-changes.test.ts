import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkspaceChanges } from '../../../electron/services/workspace-changes.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('workspace changes', () => {
  it('a folder that appears reports the files in it, once, even when the watcher never saw them', async () => {
    const ws = await mkdtemp(join(tmpdir(), 'modpak-changes-'));
    const changes = new WorkspaceChanges(ws, 16);
    await mkdir(join(ws, 'weapons', 'deep'), { recursive: true });
    await writeFile(join(ws, 'weapons', 'ZAP.TDF'), '[WEAPON]{Name=ZAP;}');
    await writeFile(join(ws, 'weapons', 'deep', 'B.TDF'), 'b');
    // An atomic save's temporary file, still there: the rename that follows is the change.
    await writeFile(join(ws, 'weapons', `.ZAP.TDF.${process.pid}-0a1b2c3d4e5f.tmp`), 'half');

    // The watcher saw only the folder (the file was renamed into it before the folder was followed).
    expect(await changes.of(['.', 'weapons'])).toEqual([
      { path: 'weapons/ZAP.TDF', hash: sha('[WEAPON]{Name=ZAP;}') },
      { path: 'weapons/deep/B.TDF', hash: sha('b') },
    ]);
    // The watcher's own events for the files and folders already reported, unchanged, are no news.
    expect(await changes.of(['weapons/ZAP.TDF', 'weapons/deep'])).toEqual([]);
    expect(await changes.of(['weapons/deep'])).toEqual([]);
    // It is dropped once: a later change of the file is reported, with its new hash.
    await writeFile(join(ws, 'weapons', 'ZAP.TDF'), '[WEAPON]{Name=ZAP2;}');
    expect(await changes.of(['weapons/ZAP.TDF'])).toEqual([{ path: 'weapons/ZAP.TDF', hash: sha('[WEAPON]{Name=ZAP2;}') }]);
    expect(await changes.of(['weapons/ZAP.TDF'])).toEqual([{ path: 'weapons/ZAP.TDF', hash: sha('[WEAPON]{Name=ZAP2;}') }]);
    // A file whose stamp changed (same bytes, touched) is reported too: its hash decides what it means.
    await utimes(join(ws, 'weapons', 'deep', 'B.TDF'), 1, 1);
    expect(await changes.of(['weapons/deep/B.TDF'])).toEqual([{ path: 'weapons/deep/B.TDF', hash: sha('b') }]);
    // A file gone is reported with no hash; a folder gone reports nothing of its own.
    await rm(join(ws, 'weapons'), { recursive: true });
    expect(await changes.of(['weapons/ZAP.TDF'])).toEqual([{ path: 'weapons/ZAP.TDF', hash: null }]);
  });

  it('files below the followed depth are left out, as the watcher leaves them out', async () => {
    const ws = await mkdtemp(join(tmpdir(), 'modpak-changes-'));
    await mkdir(join(ws, 'a', 'b', 'c'), { recursive: true });
    await writeFile(join(ws, 'a', 'one'), '1');
    await writeFile(join(ws, 'a', 'b', 'two'), '2');
    await writeFile(join(ws, 'a', 'b', 'c', 'three'), '3');
    expect((await new WorkspaceChanges(ws, 1).of(['a'])).map((f) => f.path)).toEqual(['a/one']);
    expect((await new WorkspaceChanges(ws, 2).of(['a'])).map((f) => f.path)).toEqual(['a/b/two', 'a/one']);
  });
});
