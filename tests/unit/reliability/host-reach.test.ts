import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packFolder } from '../../../electron/mods/pack.js';
import { createStudioHost } from '../../../electron/services/handlers/index.js';
import type { Envelope, StudioHost } from '../../../electron/services/host/host.js';
import { checkRequest } from '../../../electron/web/guard.js';

/** A TA install (totala1.hpi + a loose file) and a host opened on it, as a token holder would drive it. */
let dir: string;
let root: string;
let original: Buffer;
let host: StudioHost;

const refused = (answer: Envelope) => expect(answer).toMatchObject({ ok: false, error: { code: 'not-allowed' } });
function ok<T>(answer: Envelope): T {
  if (!answer.ok) throw new Error(`${answer.error.code}: ${answer.error.message}`);
  return answer.result as T;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'modpak-reach-'));
  root = join(dir, 'TotalA');
  const src = join(dir, 'src');
  await mkdir(join(src, 'units'), { recursive: true });
  await writeFile(join(src, 'units', 'ARMCOM.FBI'), '[UNITINFO]\n{\n UnitName=ARMCOM;\n}\n');
  await mkdir(root);
  await packFolder({ dir: src, target: join(root, 'totala1.hpi') });
  original = await readFile(join(root, 'totala1.hpi'));
  host = await createStudioHost({ facts: { version: '1', host: 'web', initialRoot: root, demo: false }, recentFile: null, warm: false });
  ok(await host.call('install.open', { root, game: 'ta' }));
});
afterAll(async () => {
  await host?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("an install's own files (item 6)", () => {
  it('an export onto an original is refused without confirmation; with it, the original is kept as .bak', async () => {
    const ws = join(dir, 'mymod');
    ok(await host.call('workspace.open', { dir: ws, root }));
    ok(await host.call('workspace.writeText', { dir: ws, path: 'units/ARMCOM.FBI', text: '[UNITINFO]\n{\n UnitName=MINE;\n}\n' }));
    const target = join(root, 'totala1.hpi');
    const answer = await host.call('mods.export', { dir: ws, target });
    refused(answer);
    if (!answer.ok)
      expect(answer.error.message).toMatch(
        /totala1\.hpi is one of the install's own files: replacing it needs confirmation.*totala1\.hpi\.bak/,
      );
    refused(await host.call('watch.start', { dir: ws, target }));
    expect((await readFile(target)).equals(original)).toBe(true);
    expect(await readdir(root)).toEqual(['totala1.hpi']);
    ok(await host.call('mods.export', { dir: ws, target, replaceOriginal: true }));
    expect((await readFile(`${target}.bak`)).equals(original)).toBe(true);
    expect((await readFile(target)).equals(original)).toBe(false);
    // What the studio wrote is its own: the next export replaces it without asking, the backup stays the original.
    ok(await host.call('mods.export', { dir: ws, target }));
    expect((await readFile(`${target}.bak`)).equals(original)).toBe(true);
    // A new file in the install needs no confirmation.
    ok(await host.call('mods.export', { dir: ws, target: join(root, 'mymod.ufo') }));
  });

  it('extraction into the install (or below it) is refused, and so is a workspace there', async () => {
    refused(await host.call('archive.extract', { path: join(root, 'totala1.hpi'), target: root }));
    refused(await host.call('install.extract', { root, paths: ['units'], target: join(root, 'out') }));
    refused(await host.call('workspace.open', { dir: root, root }));
    refused(await host.call('workspace.open', { dir: join(root, 'units'), root }));
    refused(await host.call('workspace.writeText', { dir: root, path: 'totala1.hpi', text: 'x' }));
    expect((await readFile(join(root, 'totala1.hpi.bak'))).equals(original)).toBe(true);
  });
});

describe("the host's reach (item 10)", () => {
  it('opens only folders that hold a game; reads nothing of a folder it refused', async () => {
    refused(await host.call('install.open', { root: '/etc', game: 'quake' }));
    refused(await host.call('install.read', { root: '/etc', path: 'passwd' }));
    const plain = join(dir, 'documents');
    await mkdir(plain);
    await writeFile(join(plain, 'letter.txt'), 'private');
    refused(await host.call('install.open', { root: plain, game: 'ta' }));
  });

  it('writes only workspaces it created or the user picked, never a dot-folder', async () => {
    const existing = join(dir, 'someone-elses');
    await mkdir(existing);
    await writeFile(join(existing, 'notes.txt'), 'theirs');
    refused(await host.call('workspace.open', { dir: existing, root }));
    refused(await host.call('workspace.open', { dir: join(dir, '.ssh'), root }));
    const ws = join(dir, 'fresh');
    ok(await host.call('workspace.open', { dir: ws, root }));
    refused(await host.call('workspace.writeText', { dir: ws, path: '.git/config', text: 'x' }));
    refused(await host.call('mods.export', { dir: ws, target: join(dir, '.config', 'x.ufo') }));
    expect(await readFile(join(existing, 'notes.txt'), 'utf8')).toBe('theirs');
    expect(await readdir(dir)).not.toContain('.config');
  });

  it('the Host header must be exactly ours, once', () => {
    const url = new URL('http://127.0.0.1:4000/api/call/app.info');
    const base = { url, explicitTokenOnly: true };
    const token = 't'.repeat(32);
    const headers = { host: '127.0.0.1:4000', 'x-modpak-token': token };
    expect(checkRequest({ ...base, headers }, 4000, token)).toBeNull();
    expect(checkRequest({ ...base, headers: { ...headers, host: '127.0.0.1:4000 ' } }, 4000, token)?.status).toBe(421);
    expect(checkRequest({ ...base, headers: { ...headers, host: 'LOCALHOST:4000' } }, 4000, token)?.status).toBe(421);
    const twice = ['Host', '127.0.0.1:4000', 'Host', 'evil.example'];
    expect(checkRequest({ ...base, headers, rawHeaders: twice }, 4000, token)?.status).toBe(421);
  });
});
