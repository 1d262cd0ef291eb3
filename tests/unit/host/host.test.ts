import { describe, expect, it, beforeEach } from 'vitest';
import { mkdtemp, writeFile, mkdir, symlink, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StudioHost } from '../../../electron/services/host/host.js';
import { JobRegistry } from '../../../electron/services/host/jobs.js';
import type { CallName } from '../../../shared/contract.js';
import { recordingTable } from './table.js';

let dir: string;
let calls: { name: CallName; request: unknown }[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'modpak-host-'));
  calls = [];
  await mkdir(join(dir, 'install'));
  await writeFile(join(dir, 'install', 'file.bin'), Buffer.from([1, 2, 3, 4]));
  await writeFile(join(dir, 'secret.txt'), 'not for the renderer');
});

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

describe('StudioHost: refusing bad calls before anything runs', () => {
  it('refuses a name that is not in the contract', async () => {
    const host = new StudioHost(recordingTable(calls));
    for (const name of ['fs.readFile', 'constructor', '__proto__', 'toString', 42, null]) {
      const answer = await host.call(name, {});
      expect(answer).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    }
    expect(calls).toEqual([]);
  });

  it('refuses payloads the schema rejects: wrong types, missing fields, unknown keys, non-objects', async () => {
    const host = new StudioHost(recordingTable(calls));
    await host.grant(join(dir, 'install'));
    const bad: unknown[] = [
      { path: 42, entry: 'x' },
      { entry: 'x' },
      { path: join(dir, 'install', 'file.bin'), entry: 'x', maxBytes: -1 },
      { path: join(dir, 'install', 'file.bin'), entry: 'x', evil: true },
      'a string',
      [join(dir, 'install', 'file.bin')],
      { path: '', entry: 'x' },
      { path: 'x'.repeat(5000), entry: 'x' },
    ];
    for (const payload of bad) {
      const answer = await host.call('archive.read', payload);
      expect(answer.ok, JSON.stringify(payload).slice(0, 60)).toBe(false);
      if (!answer.ok) {
        expect(answer.error.code).toBe('bad-request');
        expect(answer.error.message).toMatch(/bad request|full path/);
      }
    }
    expect(calls).toEqual([]);
  });

  it('names the field in the message of a schema failure', async () => {
    const host = new StudioHost(recordingTable(calls));
    const answer = await host.call('install.defs', { root: '/x', kind: 'tanks' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    if (!answer.ok) expect(answer.error.message).toContain('kind');
  });
});

describe('StudioHost: the path allowlist', () => {
  it('refuses to read a file nobody opened, then allows it under an opened folder', async () => {
    const host = new StudioHost(recordingTable(calls));
    const file = join(dir, 'install', 'file.bin');
    const refused = await host.call('archive.read', { path: file, entry: 'x' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'not-allowed' } });
    expect(calls).toEqual([]);
    await host.grant(join(dir, 'install'));
    const answer = await host.call('archive.read', { path: file, entry: 'x' });
    expect(answer).toMatchObject({ ok: true, result: { data: Buffer.from([1, 2, 3, 4]).toString('base64'), size: 4 } });
  });

  it('grants an opened file only after the open succeeded, and only that file', async () => {
    const host = new StudioHost(recordingTable(calls));
    const missing = join(dir, 'nope.bin');
    expect(await host.call('archive.open', { path: missing })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await host.call('archive.read', { path: missing, entry: 'x' })).toMatchObject({ ok: false, error: { code: 'not-allowed' } });
    const secret = join(dir, 'secret.txt');
    expect(await host.call('archive.open', { path: secret })).toMatchObject({ ok: true });
    expect(await host.call('archive.read', { path: secret, entry: 'x' })).toMatchObject({ ok: true });
    expect(await host.call('archive.read', { path: join(dir, 'install', 'file.bin'), entry: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'not-allowed' },
    });
  });

  it('does not let .. climb out of an opened folder', async () => {
    const host = new StudioHost(recordingTable(calls));
    await host.grant(join(dir, 'install'));
    const answer = await host.call('archive.read', { path: `${dir}/install/../secret.txt`, entry: 'x' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'not-allowed' } });
    expect(calls).toEqual([]);
  });

  it('does not let a symbolic link inside an opened folder lead out of it', async () => {
    const host = new StudioHost(recordingTable(calls));
    await symlink(join(dir, 'secret.txt'), join(dir, 'install', 'link.txt'));
    await host.grant(join(dir, 'install'));
    const answer = await host.call('archive.read', { path: join(dir, 'install', 'link.txt'), entry: 'x' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'not-allowed' } });
    expect(calls).toEqual([]);
  });

  it('refuses relative paths', async () => {
    const host = new StudioHost(recordingTable(calls));
    const answer = await host.call('archive.open', { path: 'install/file.bin' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    if (!answer.ok) expect(answer.error.message).toContain('full path');
  });

  it('a refused call grants nothing: its extraction target stays closed', async () => {
    const host = new StudioHost(recordingTable(calls));
    const target = join(dir, 'out');
    const answer = await host.call('archive.extract', { path: join(dir, 'secret.txt'), target });
    expect(answer).toMatchObject({ ok: false, error: { code: 'not-allowed' } });
    expect(await exists(target)).toBe(false);
    expect(host.allowlist.allows(target)).toBe(false);
  });

  it('an extraction target the user chose is granted and written', async () => {
    const host = new StudioHost(recordingTable(calls));
    await host.grant(join(dir, 'install'));
    const target = join(dir, 'out');
    const answer = await host.call('archive.extract', { path: join(dir, 'install', 'file.bin'), target });
    expect(answer).toMatchObject({ ok: true, result: { files: 3, bytes: 12 } });
    expect((await readdir(target)).sort()).toEqual(['copy0.bin', 'copy1.bin', 'copy2.bin']);
    expect(host.allowlist.allows(join(target, 'copy0.bin'))).toBe(true);
  });
});

describe('StudioHost: jobs, progress and cancellation', () => {
  it('sends progress events carrying the job id', async () => {
    const host = new StudioHost(recordingTable(calls), { progressIntervalMs: 0 });
    await host.grant(join(dir, 'install'));
    const events: unknown[] = [];
    host.on((event, payload) => events.push({ event, payload }));
    const answer = await host.call('archive.extract', { path: join(dir, 'install', 'file.bin'), target: join(dir, 'out'), jobId: 'job-7' });
    expect(answer.ok).toBe(true);
    expect(events).toEqual(
      [1, 2, 3].map((done) => ({ event: 'progress', payload: { jobId: 'job-7', done, total: 3, label: `copy${done - 1}.bin` } })),
    );
  });

  it('jobs.cancel aborts a running job, whose call answers cancelled', async () => {
    const jobs = new JobRegistry();
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const host = new StudioHost(
      recordingTable(calls, {
        'archive.verify': async (_request, ctx) => {
          started();
          await new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
          throw new Error('not reached');
        },
        'jobs.cancel': async ({ jobId }) => ({ cancelled: jobs.cancel(jobId) }),
      }),
      { jobs },
    );
    await host.grant(join(dir, 'install'));
    const pending = host.call('archive.verify', { path: join(dir, 'install', 'file.bin'), jobId: 'verify-1' });
    await running;
    expect(jobs.size).toBe(1);
    expect(await host.call('jobs.cancel', { jobId: 'verify-1' })).toEqual({ ok: true, result: { cancelled: true } });
    expect(await pending).toEqual({ ok: false, error: { code: 'cancelled', message: 'cancelled' } });
    expect(jobs.size).toBe(0);
    expect(await host.call('jobs.cancel', { jobId: 'verify-1' })).toEqual({ ok: true, result: { cancelled: false } });
  });

  it('refuses a second job under an id that is still running', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const host = new StudioHost(
      recordingTable(calls, {
        'archive.verify': async () => {
          await gate;
          return { ok: true, files: 0, bytes: 0, errors: [], warnings: [] };
        },
      }),
    );
    await host.grant(join(dir, 'install'));
    const request = { path: join(dir, 'install', 'file.bin'), jobId: 'same' };
    const first = host.call('archive.verify', request);
    await new Promise((r) => setTimeout(r, 10));
    expect(await host.call('archive.verify', request)).toMatchObject({
      ok: false,
      error: { code: 'bad-request', message: 'job same is already running' },
    });
    release();
    expect(await first).toMatchObject({ ok: true });
  });

  it('close() cancels running work and refuses new calls', async () => {
    const host = new StudioHost(
      recordingTable(calls, {
        'archive.verify': async (_r, ctx) =>
          new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))),
      }),
    );
    await host.grant(join(dir, 'install'));
    const pending = host.call('archive.verify', { path: join(dir, 'install', 'file.bin') });
    await new Promise((r) => setTimeout(r, 10));
    await host.close();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(await host.call('app.info', {})).toMatchObject({ ok: false, error: { code: 'failed' } });
  });
});
