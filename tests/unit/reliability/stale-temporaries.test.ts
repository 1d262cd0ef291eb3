import { describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomically } from '../../../electron/io/byte-sink.js';

/** A process id that is certainly gone: a child that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  const pid = child.pid!;
  await new Promise((r) => child.on('close', r));
  return pid;
}

describe('temporary files left by a killed writer', () => {
  it('are removed by the next write to the same target; live writers and other names are left alone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'modpak-stale-'));
    try {
      const target = join(dir, 'mod.ufo');
      const dead = await deadPid();
      const stale = [`.mod.ufo.${dead}-0123456789ab.tmp`, '.mod.ufo.a1b2c3d4e5f6.tmp'];
      const kept = [`.mod.ufo.${process.ppid}-0123456789ab.tmp`, '.other.ufo.a1b2c3d4e5f6.tmp', '.mod.ufo.notes.tmp', 'mod.ufo.tmp'];
      for (const name of [...stale, ...kept]) await writeFile(join(dir, name), 'left over');
      await writeFileAtomically(target, (sink) => sink.write(new Uint8Array([1, 2, 3])));
      const names = (await readdir(dir)).sort();
      expect(names).toEqual(['mod.ufo', ...kept].sort());
      expect([...(await readFile(target))]).toEqual([1, 2, 3]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a temporary file of a running write of this process survives a second write to the target', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'modpak-stale-'));
    try {
      const target = join(dir, 'a.pak');
      let release!: () => void;
      let started!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const opened = new Promise<void>((r) => (started = r));
      const first = writeFileAtomically(target, async (sink) => {
        await sink.write(new Uint8Array([9]));
        started();
        await gate;
      });
      await opened;
      await writeFileAtomically(target, (sink) => sink.write(new Uint8Array([7])));
      release();
      await first;
      expect([...(await readFile(target))]).toEqual([9]);
      expect(await readdir(dir)).toEqual(['a.pak']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
