import { describe, expect, it, beforeAll } from 'vitest';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { CALL_NAMES, EVENT_CHANNEL, callChannel } from '../../../electron/services/host/channels.js';
import { requests } from '../../../shared/contract.js';
import { StudioHost } from '../../../electron/services/host/host.js';
import { registerCallHandlers, forwardEvents, type IpcMainLike } from '../../../electron/main/ipc.js';
import {
  secureWebPreferences,
  mayNavigate,
  isTrustedSender,
  isAppUrl,
  appRelativePath,
  APP_ENTRY,
  CONTENT_SECURITY_POLICY,
} from '../../../electron/main/policy.js';
import { buildElectronBundles } from '../../../electron/main/bundle.js';
import { recordingTable } from './table.js';

/**
 * The Electron shell's rules, without Electron: the window's preferences, the navigation and sender
 * guards, the IPC adapter over a fake ipcMain, and the bundled preload run in a bare context with a fake
 * `electron` module, the way a sandboxed preload runs.
 */
describe('the contract as data', () => {
  it('the channel list names exactly the contract calls', () => {
    expect([...CALL_NAMES].sort()).toEqual(Object.keys(requests).sort());
  });
});

describe('window policy', () => {
  it('isolates and sandboxes the renderer, without Node', () => {
    const prefs = secureWebPreferences('/app/preload.cjs');
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      preload: '/app/preload.cjs',
    });
  });

  it('the CSP allows scripts only from the app', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*unsafe/);
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
    // Styles too: only the app's stylesheets (Vue sets styles through the CSSOM, which CSP leaves alone).
    expect(CONTENT_SECURITY_POLICY).toContain("style-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/style-src[^;]*unsafe/);
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });

  it('navigation is allowed only to the app entry', () => {
    expect(mayNavigate(APP_ENTRY)).toBe(true);
    expect(mayNavigate('modpak://app/')).toBe(true);
    for (const url of [
      'https://example.com/',
      'file:///etc/passwd',
      'modpak://other/index.html',
      'modpak://app/assets/x.js',
      'javascript:alert(1)',
      'not a url',
    ]) {
      expect(mayNavigate(url), url).toBe(false);
    }
  });

  it('only the app top frame is a trusted sender', () => {
    expect(isTrustedSender({ url: 'modpak://app/index.html', parent: null })).toBe(true);
    expect(isTrustedSender({ url: 'modpak://app/index.html', parent: {} })).toBe(false);
    expect(isTrustedSender({ url: 'https://evil.example/', parent: null })).toBe(false);
    expect(isTrustedSender(null)).toBe(false);
  });

  it('maps app URLs to renderer files', () => {
    expect(appRelativePath('modpak://app/')).toBe('/index.html');
    expect(appRelativePath('modpak://app/assets/a.js')).toBe('/assets/a.js');
    expect(appRelativePath('modpak://elsewhere/a.js')).toBeNull();
    expect(isAppUrl('http://app/')).toBe(false);
  });
});

describe('IPC adapter', () => {
  function fakeIpc() {
    const handlers = new Map<string, Parameters<IpcMainLike['handle']>[1]>();
    const ipc: IpcMainLike = {
      handle: (channel, listener) => {
        if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
        handlers.set(channel, listener);
      },
      removeHandler: (channel) => void handlers.delete(channel),
    };
    return { ipc, handlers };
  }
  const trusted = { senderFrame: { url: 'modpak://app/index.html', parent: null } };

  it('registers one handler per contract call and nothing else', () => {
    const { ipc, handlers } = fakeIpc();
    const unregister = registerCallHandlers(ipc, new StudioHost(recordingTable([])));
    expect([...handlers.keys()].sort()).toEqual(CALL_NAMES.map(callChannel).sort());
    unregister();
    expect(handlers.size).toBe(0);
  });

  it('forwards a trusted call to the host, which validates it', async () => {
    const calls: { name: string; request: unknown }[] = [];
    const dir = await mkdtemp(join(tmpdir(), 'modpak-ipc-'));
    await writeFile(join(dir, 'a.bin'), 'abc');
    const host = new StudioHost(recordingTable(calls as never));
    await host.grant(dir);
    const { ipc, handlers } = fakeIpc();
    registerCallHandlers(ipc, host);
    const read = handlers.get(callChannel('archive.read'))!;
    expect(await read(trusted, { path: join(dir, 'a.bin'), entry: 'a' })).toMatchObject({ ok: true, result: { size: 3 } });
    expect(await read(trusted, { path: join(dir, 'a.bin') })).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    expect(calls).toHaveLength(1);
  });

  it('refuses calls from a foreign or missing frame before the host sees them', async () => {
    const calls: { name: string; request: unknown }[] = [];
    const host = new StudioHost(recordingTable(calls as never));
    await host.grant(tmpdir());
    const { ipc, handlers } = fakeIpc();
    registerCallHandlers(ipc, host);
    const read = handlers.get(callChannel('archive.read'))!;
    for (const senderFrame of [null, { url: 'https://evil.example/', parent: null }, { url: 'modpak://app/index.html', parent: {} }]) {
      expect(await read({ senderFrame }, { path: join(tmpdir(), 'x'), entry: 'x' })).toEqual({
        ok: false,
        error: { code: 'not-allowed', message: 'calls are accepted only from the studio window' },
      });
    }
    expect(calls).toEqual([]);
  });

  it('sends host events to the window only while it shows the app', () => {
    const host = new StudioHost(recordingTable([]));
    const sent: unknown[] = [];
    let url = APP_ENTRY;
    let destroyed = false;
    forwardEvents(
      host,
      { isDestroyed: () => destroyed, getURL: () => url, send: (channel, message) => sent.push([channel, message]) },
      isAppUrl,
    );
    const payload = { jobId: 'j', done: 1, total: 2 };
    host.emit('progress', payload);
    url = 'https://evil.example/';
    host.emit('progress', payload);
    url = APP_ENTRY;
    destroyed = true;
    host.emit('progress', payload);
    expect(sent).toEqual([[EVENT_CHANNEL, { event: 'progress', payload }]]);
  });
});

describe('the bundled preload', () => {
  let out: string;
  let preload: string;
  beforeAll(async () => {
    // Bundle the sources of this checkout into a scratch out/ folder.
    out = await mkdtemp(join(tmpdir(), 'modpak-bundle-'));
    await buildElectronBundles(join(import.meta.dirname, '..', '..', '..'), out);
    preload = await readFile(join(out, 'preload', 'index.cjs'), 'utf8');
  }, 60_000);

  it('is one CommonJS file that requires nothing but electron', async () => {
    const required = [...preload.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
    expect([...new Set(required)]).toEqual(['electron']);
    expect(preload).not.toMatch(/\bimport\s*[{(*]/);
    expect(preload).not.toContain('zod');
  });

  it('exposes exactly call, on and pathForFile, forwarding contract calls on their own channels only', async () => {
    const exposed: Record<string, unknown> = {};
    const invoked: [string, unknown][] = [];
    let eventHandler: ((e: unknown, m: unknown) => void) | null = null;
    const electron = {
      contextBridge: { exposeInMainWorld: (key: string, value: unknown) => void (exposed[key] = value) },
      ipcRenderer: {
        invoke: async (channel: string, payload: unknown) => {
          invoked.push([channel, payload]);
          return { ok: true, result: channel };
        },
        on: (channel: string, handler: (e: unknown, m: unknown) => void) => {
          if (channel === EVENT_CHANNEL) eventHandler = handler;
        },
      },
    };
    const module = { exports: {} };
    runInNewContext(preload, {
      require: (name: string) => (name === 'electron' ? electron : undefined),
      module,
      exports: module.exports,
      console,
    });
    expect(Object.keys(exposed)).toEqual(['modpak']);
    const bridge = exposed.modpak as { call(n: string, r: unknown): Promise<unknown>; on(e: string, l: (p: unknown) => void): () => void };
    expect(Object.keys(bridge).sort()).toEqual(['call', 'on', 'pathForFile']);
    expect(await bridge.call('install.tree', { root: '/x' })).toEqual({ ok: true, result: 'modpak:call:install.tree' });
    expect(await bridge.call('shell.openExternal', {})).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    expect(await bridge.call('toString', {})).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    expect(invoked).toEqual([['modpak:call:install.tree', { root: '/x' }]]);

    const got: unknown[] = [];
    const off = bridge.on('progress', (p) => got.push(p));
    bridge.on('not-an-event', (p) => got.push(['wrong', p]));
    eventHandler!({}, { event: 'progress', payload: { jobId: 'a', done: 1, total: 1 } });
    eventHandler!({}, { event: 'not-an-event', payload: 1 });
    off();
    eventHandler!({}, { event: 'progress', payload: { jobId: 'b', done: 1, total: 1 } });
    expect(got).toEqual([{ jobId: 'a', done: 1, total: 1 }]);
  });

  it('the main bundle leaves only electron, Node built-ins and the optional esbuild outside', async () => {
    const main = await readFile(join(out, 'main', 'index.cjs'), 'utf8');
    const required = new Set([...main.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!));
    const builtins = new Set((await import('node:module')).builtinModules);
    const outside = [...required].filter((r) => r !== 'electron' && !r.startsWith('node:') && !builtins.has(r));
    // esbuild is loaded with import() by the extraction pool, which extracts in-process without it.
    expect(outside.filter((r) => r !== 'esbuild')).toEqual([]);
    expect(main).not.toContain('pnpapi');
    expect(required.has('electron')).toBe(true);
  });

  it('the main bundle starts against a stand-in electron: secure window, app protocol, one handler per call', async () => {
    const code = await readFile(join(out, 'main', 'index.cjs'), 'utf8');
    const userData = await mkdtemp(join(tmpdir(), 'modpak-userdata-'));
    const handlers = new Map<string, (event: unknown, payload: unknown) => Promise<unknown>>();
    const windows: { options: { webPreferences: Record<string, unknown> }; url?: string }[] = [];
    let protocolHandler: ((request: Request) => Promise<Response>) | null = null;
    let privileged: unknown = null;
    const appEvents = new Map<string, ((...args: unknown[]) => void)[]>();
    const contentsEvents = new Map<string, (...args: unknown[]) => void>();
    let openHandler: ((details: { url: string }) => { action: string }) | null = null;
    let permissionAnswer: boolean | null = null;
    let permissionCheck: ((...args: unknown[]) => boolean) | null = null;
    const webContents = {
      setWindowOpenHandler: (h: typeof openHandler) => void (openHandler = h),
      on: (name: string, h: (...args: unknown[]) => void) => void contentsEvents.set(name, h),
      isDestroyed: () => false,
      getURL: () => 'modpak://app/index.html',
      send: () => {},
    };
    class BrowserWindow {
      webContents = webContents;
      constructor(readonly options: { webPreferences: Record<string, unknown> }) {
        windows.push(this as never);
        for (const h of appEvents.get('web-contents-created') ?? []) h({}, webContents);
      }
      loadURL(url: string) {
        (this as unknown as { url: string }).url = url;
        return Promise.resolve();
      }
      once() {}
      on() {}
      show() {}
      static getAllWindows = () => windows;
    }
    const electron = {
      app: {
        whenReady: () => Promise.resolve(),
        on: (name: string, h: (...args: unknown[]) => void) => appEvents.set(name, [...(appEvents.get(name) ?? []), h]),
        getPath: () => userData,
        getVersion: () => '0.1.0',
        quit: () => {},
        exit: () => {},
      },
      BrowserWindow,
      dialog: {
        showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
        showErrorBox: (t: string, m: string) => {
          throw new Error(`${t}: ${m}`);
        },
      },
      ipcMain: { handle: (channel: string, h: never) => void handlers.set(channel, h), removeHandler: () => {} },
      protocol: {
        registerSchemesAsPrivileged: (s: unknown) => void (privileged = s),
        handle: (_scheme: string, h: typeof protocolHandler) => void (protocolHandler = h),
      },
      session: {
        defaultSession: {
          setPermissionRequestHandler: (h: (c: unknown, p: string, cb: (ok: boolean) => void) => void) =>
            h({}, 'media', (ok) => (permissionAnswer = ok)),
          setPermissionCheckHandler: (h: typeof permissionCheck) => void (permissionCheck = h),
        },
      },
      shell: { openExternal: async () => {} },
    };
    const { createRequire } = await import('node:module');
    const realRequire = createRequire(join(out, 'main', 'index.cjs'));
    const module = { exports: {} };
    const run = new Function('require', 'module', 'exports', '__filename', '__dirname', code);
    run(
      (name: string) => (name === 'electron' ? electron : realRequire(name)),
      module,
      module.exports,
      join(out, 'main', 'index.cjs'),
      join(out, 'main'),
    );
    await expect.poll(() => windows.length, { timeout: 20_000 }).toBe(1);

    expect(privileged).toEqual([{ scheme: 'modpak', privileges: expect.objectContaining({ standard: true, secure: true }) }]);
    expect(windows[0]!.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      preload: join(out, 'preload', 'index.cjs'),
    });
    expect(windows[0]!.url).toBe('modpak://app/index.html');
    // Each guard, so removing any one of them fails here: permissions (requests and checks), new windows,
    // navigation and redirects away from the app, <webview>.
    expect(permissionAnswer).toBe(false);
    expect((permissionCheck as ((...args: unknown[]) => boolean) | null)?.({}, 'clipboard-read', 'modpak://app', {})).toBe(false);
    expect(openHandler!({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    expect(openHandler!({ url: 'modpak://app/index.html' })).toEqual({ action: 'deny' });
    for (const event of ['will-navigate', 'will-redirect']) {
      let prevented = false;
      contentsEvents.get(event)!({ preventDefault: () => (prevented = true) }, 'https://evil.example/');
      expect(prevented, event).toBe(true);
      let stayed = false;
      contentsEvents.get(event)!({ preventDefault: () => (stayed = true) }, 'modpak://app/index.html');
      expect(stayed, `${event} to the app entry`).toBe(false);
    }
    let webviewBlocked = false;
    contentsEvents.get('will-attach-webview')!({ preventDefault: () => (webviewBlocked = true) }, {}, {});
    expect(webviewBlocked).toBe(true);
    expect([...handlers.keys()].sort()).toEqual(CALL_NAMES.map(callChannel).sort());

    const trusted = { senderFrame: { url: 'modpak://app/index.html', parent: null } };
    // The sender check: a foreign page, a subframe or a gone frame is refused before the host runs the call.
    for (const sender of [
      { senderFrame: { url: 'https://evil.example/', parent: null } },
      { senderFrame: { url: 'modpak://app/index.html', parent: {} } },
      { senderFrame: null },
    ]) {
      expect(await handlers.get(callChannel('app.info'))!(sender, {}), JSON.stringify(sender)).toMatchObject({
        ok: false,
        error: { code: 'not-allowed' },
      });
    }
    const info = (await handlers.get(callChannel('app.info'))!(trusted, {})) as {
      ok: boolean;
      result: { host: string; demo: boolean; initialRoot: string };
    };
    expect(info).toMatchObject({ ok: true, result: { host: 'electron', demo: true } });
    const opened = (await handlers.get(callChannel('install.open'))!(trusted, { root: info.result.initialRoot })) as {
      ok: boolean;
      result: { game: string };
    };
    expect(opened).toMatchObject({ ok: true, result: { game: 'ta' } });

    // The renderer is served from out/renderer only, with the CSP on the page.
    expect((await protocolHandler!(new Request('modpak://app/index.html'))).status).toBe(404);
    await mkdir(join(out, 'renderer'), { recursive: true });
    await writeFile(join(out, 'renderer', 'index.html'), '<title>ModPak Studio</title>');
    await writeFile(join(out, 'secret.txt'), 'outside the renderer');
    const page = await protocolHandler!(new Request('modpak://app/'));
    expect(page.status).toBe(200);
    expect(await page.text()).toBe('<title>ModPak Studio</title>');
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    for (const url of [
      'modpak://app/../secret.txt',
      'modpak://app/%2e%2e/secret.txt',
      'modpak://app/..%2fsecret.txt',
      'modpak://other/index.html',
    ]) {
      const res = await protocolHandler!(new Request(url));
      expect(res.status, url).toBe(404);
    }
    for (const h of appEvents.get('before-quit') ?? []) h();
  }, 60_000);
});

describe('layering: electron stays in the Electron-only modules', () => {
  it('no module that plain Node (the CLI, serve, tests) imports mentions electron', async () => {
    const { readdir } = await import('node:fs/promises');
    const root = join(import.meta.dirname, '..', '..', '..');
    const found: string[] = [];
    const walk = async (dir: string) => {
      for (const item of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, item.name);
        if (item.isDirectory()) await walk(path);
        else if (
          /\.(ts|mts|vue)$/.test(item.name) &&
          /from\s+['"]electron['"]|require\(\s*['"]electron['"]\s*\)/.test(await readFile(path, 'utf8'))
        )
          found.push(path.slice(root.length + 1));
      }
    };
    for (const folder of ['electron', 'shared', 'renderer']) await walk(join(root, folder));
    expect(found.sort()).toEqual(['electron/main/index.ts', 'electron/preload/index.ts']);
  });
});
