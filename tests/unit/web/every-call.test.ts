import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { createBridgeApi, createHttpApi, ApiError, type PreloadBridge } from '../../../renderer/api/transport.js';
import { requests, type CallName, type RequestOf, type StudioApi } from '../../../shared/contract.js';
import { createStudioHost } from '../../../electron/services/handlers/index.js';
import type { StudioHost } from '../../../electron/services/host/host.js';
import { startWebHost, type WebHost } from '../../../electron/web/server.js';
import { buildElectronBundles } from '../../../electron/main/bundle.js';
import { forwardEvents, registerCallHandlers, type IpcMainLike } from '../../../electron/main/ipc.js';
import { isAppUrl } from '../../../electron/main/policy.js';
import { packFolder } from '../../../electron/mods/pack.js';
import { NodeEventSource } from './helpers.js';

/**
 * Every call of the contract, over both transports: HTTP to `modpak serve`, and the real preload bundle
 * through the IPC adapter. Each transport works in its own folders; the answers must agree call by call
 * (after the folder names are made the same), and a call added to the contract without a case here fails.
 */
let dir: string;
let root: string;
let archive: string;
let archiveBase64: string;
let host: StudioHost;
let web: WebHost;
const transports: Record<'http' | 'electron', StudioApi> = {} as never;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'modpak-every-call-'));
  root = join(dir, 'install');
  const src = join(dir, 'src');
  await mkdir(join(src, 'units'), { recursive: true });
  for (let i = 0; i < 3; i++) await writeFile(join(src, 'units', `U${i}.FBI`), `[UNITINFO]{UnitName=U${i};}`);
  await mkdir(root);
  archive = join(root, 'mod.ufo');
  await packFolder({ dir: src, target: archive });
  archiveBase64 = (await readFile(archive)).toString('base64');
  host = await createStudioHost({ facts: { version: '1', host: 'web', initialRoot: root, demo: false }, recentFile: null, warm: false });
  web = await startWebHost({ host, rendererDir: join(dir, 'renderer') });
  transports.http = createHttpApi({ base: `http://127.0.0.1:${web.port}`, token: web.token, EventSource: NodeEventSource });

  const out = join(dir, 'out');
  await buildElectronBundles(join(import.meta.dirname, '..', '..', '..'), out);
  const handlers = new Map<string, (event: unknown, payload: unknown) => Promise<unknown>>();
  const ipcMain: IpcMainLike = { handle: (c, h) => void handlers.set(c, h as never), removeHandler: (c) => void handlers.delete(c) };
  registerCallHandlers(ipcMain, host);
  forwardEvents(host, { isDestroyed: () => false, getURL: () => 'modpak://app/index.html', send: () => {} }, isAppUrl);
  const frame = { senderFrame: { url: 'modpak://app/index.html', parent: null } };
  const exposed: Record<string, unknown> = {};
  const electron = {
    contextBridge: { exposeInMainWorld: (k: string, v: unknown) => void (exposed[k] = v) },
    ipcRenderer: {
      invoke: async (channel: string, payload: unknown) => structuredClone(await handlers.get(channel)!(frame, structuredClone(payload))),
      on: () => {},
    },
  };
  const module = { exports: {} };
  runInNewContext(await readFile(join(out, 'preload', 'index.cjs'), 'utf8'), { require: () => electron, module, exports: module.exports });
  transports.electron = createBridgeApi(exposed.modpak as PreloadBridge);
}, 90_000);

afterAll(async () => {
  await web?.close();
  await host?.close();
  await rm(dir, { recursive: true, force: true });
});

type Case = { [K in CallName]: { name: K; request: (t: string) => RequestOf<K>; expect: 'ok' | string } }[CallName];

/** In the order a session makes them; `t` names the transport's own folders. */
// Workspaces and extraction targets lie beside the install: the host refuses them inside it.
const ws = (t: string) => join(dir, `ws-${t}`);
const cases: Case[] = [
  { name: 'app.info', request: () => ({}), expect: 'ok' },
  { name: 'install.open', request: () => ({ root }), expect: 'ok' },
  { name: 'install.recent', request: () => ({}), expect: 'ok' },
  { name: 'install.stats', request: () => ({ root }), expect: 'ok' },
  { name: 'install.tree', request: () => ({ root }), expect: 'ok' },
  { name: 'install.resolve', request: () => ({ root, path: 'units/u1.fbi' }), expect: 'ok' },
  { name: 'install.defs', request: () => ({ root, kind: 'units' }), expect: 'ok' },
  { name: 'install.conflicts', request: () => ({ root }), expect: 'ok' },
  { name: 'install.read', request: () => ({ root, path: 'units/U0.FBI' }), expect: 'ok' },
  { name: 'install.grep', request: () => ({ root, pattern: 'UnitName', globs: ['*.fbi'] }), expect: 'ok' },
  { name: 'install.check', request: () => ({ root }), expect: 'ok' },
  { name: 'install.units', request: () => ({ root }), expect: 'ok' },
  { name: 'install.modFolders', request: () => ({ root }), expect: 'ok' },
  { name: 'install.extract', request: (t) => ({ root, paths: ['units/U0.FBI'], target: join(dir, `out-${t}`) }), expect: 'ok' },
  { name: 'asset.view', request: () => ({ root, path: 'units/U0.FBI' }), expect: 'ok' },
  { name: 'archive.open', request: () => ({ path: archive }), expect: 'ok' },
  { name: 'archive.read', request: () => ({ path: archive, entry: 'units/U2.FBI' }), expect: 'ok' },
  { name: 'archive.extract', request: (t) => ({ path: archive, target: join(dir, `x-${t}`), globs: ['*.fbi'] }), expect: 'ok' },
  { name: 'archive.verify', request: () => ({ path: archive }), expect: 'ok' },
  { name: 'archive.openBytes', request: () => ({ name: 'dropped.ufo', data: archiveBase64 }), expect: 'ok' },
  { name: 'folders.list', request: () => ({ path: root, files: true }), expect: 'ok' },
  { name: 'extract.defaultTarget', request: () => ({ from: archive }), expect: 'ok' },
  // The web host has no desktop; over the bridge the host is the same one, so both refuse alike.
  { name: 'shell.reveal', request: () => ({ path: archive }), expect: 'not-allowed' },
  { name: 'shell.dragOut', request: () => ({ root, paths: ['units/U0.FBI'] }), expect: 'not-allowed' },
  { name: 'dialog.pickFolder', request: () => ({}), expect: 'ok' },
  { name: 'dialog.pickFile', request: () => ({}), expect: 'ok' },
  { name: 'jobs.cancel', request: (t) => ({ jobId: `none-${t}` }), expect: 'ok' },
  { name: 'workspace.open', request: (t) => ({ dir: ws(t), root }), expect: 'ok' },
  { name: 'workspace.fromArchive', request: (t) => ({ archive, dir: join(dir, `from-${t}`), root }), expect: 'ok' },
  { name: 'workspace.override', request: (t) => ({ dir: ws(t), root, path: 'units/U1.FBI' }), expect: 'ok' },
  {
    name: 'workspace.writeText',
    request: (t) => ({ dir: ws(t), path: 'units/U1.FBI', text: '[UNITINFO]{UnitName=Renamed;}' }),
    expect: 'ok',
  },
  { name: 'workspace.readText', request: (t) => ({ dir: ws(t), path: 'units/U1.FBI' }), expect: 'ok' },
  { name: 'workspace.files', request: (t) => ({ dir: ws(t) }), expect: 'ok' },
  {
    name: 'workspace.addFiles',
    request: (t) => ({ dir: ws(t), files: [{ path: 'gamedata/dropped.txt', data: btoa('dropped') }] }),
    expect: 'ok',
  },
  { name: 'workspace.addPaths', request: (t) => ({ dir: ws(t), sources: [archive] }), expect: 'ok' },
  { name: 'workspace.checkTdf', request: () => ({ text: '[UNITINFO]{UnitName=x;' }), expect: 'ok' },
  { name: 'mods.diff', request: (t) => ({ dir: ws(t), root }), expect: 'ok' },
  { name: 'mods.impact', request: (t) => ({ root, archive: ws(t), name: `ws-${t}.ufo` }), expect: 'ok' },
  { name: 'mods.export', request: (t) => ({ dir: ws(t), target: join(root, `export-${t}.ufo`) }), expect: 'ok' },
  { name: 'watch.status', request: (t) => ({ dir: ws(t) }), expect: 'ok' },
  { name: 'watch.start', request: (t) => ({ dir: ws(t), target: join(root, `watched-${t}.ufo`), debounceMs: 50 }), expect: 'ok' },
  { name: 'watch.stop', request: (t) => ({ dir: ws(t) }), expect: 'ok' },
];

async function outcome(api: StudioApi, c: Case, t: string): Promise<{ ok: true; result: unknown } | { ok: false; code: string }> {
  try {
    return { ok: true, result: await api.call(c.name, c.request(t) as never) };
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, code: err.code };
    throw err;
  }
}

/** The answer with the transport's folder names made the same, and times and ids that differ by nature dropped. */
function comparable(value: unknown, t: string): unknown {
  return JSON.parse(
    JSON.stringify(value, (k, v: unknown) =>
      ['durationMs', 'at', 'since', 'version', 'seq', 'updatedAt'].includes(k) ? undefined : v,
    ).replaceAll(`-${t}`, '-T'),
  );
}

describe('every contract call over both transports', () => {
  it('has a case for every call', () => {
    expect(cases.map((c) => c.name).sort()).toEqual((Object.keys(requests) as CallName[]).sort());
  });

  it('answers each call the same way over HTTP and over the preload bridge', async () => {
    for (const c of cases) {
      const http = await outcome(transports.http, c, 'http');
      const ipc = await outcome(transports.electron, c, 'electron');
      expect(http.ok ? 'ok' : http.code, `${c.name} over http`).toBe(c.expect);
      expect(ipc.ok ? 'ok' : ipc.code, `${c.name} over electron`).toBe(c.expect);
      // A dropped archive is copied to a temporary folder of its own per call.
      if (c.name === 'archive.openBytes') continue;
      if (c.name === 'install.recent' || c.name === 'watch.start' || c.name === 'watch.status' || c.name === 'watch.stop') continue;
      expect(comparable(ipc, 'electron'), c.name).toEqual(comparable(http, 'http'));
    }
  }, 120_000);
});
