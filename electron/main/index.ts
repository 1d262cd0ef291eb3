import { app, BrowserWindow, dialog, ipcMain, nativeImage, protocol, session, shell } from 'electron';
import { join } from 'node:path';
import { createStudioHost } from '../services/handlers/index.js';
import type { StudioHost } from '../services/host/host.js';
import type { Dialogs } from '../services/handlers/app.js';
import { ensureDemoInstall } from '../services/studio-demo.js';
import { staticFile, contentTypeOf } from '../services/host/static.js';
import { forwardEvents, registerCallHandlers } from './ipc.js';
import { createDesktop } from './desktop.js';
import { APP_ENTRY, APP_SCHEME, CONTENT_SECURITY_POLICY, appRelativePath, isAppUrl, mayNavigate, secureWebPreferences } from './policy.js';

/**
 * The Electron main process: one window, the renderer served from modpak://app (never file://), the
 * contract registered as one IPC handler per call over the same host `modpak serve` uses. All rules
 * live in plain modules (policy.ts, ipc.ts, services/host) tested without Electron; this file wires them.
 * Bundled to out/main/index.cjs; the renderer is in out/renderer and the preload in out/preload.
 */
const outDir = join(__dirname, '..');
const rendererDir = join(outDir, 'renderer');
const preloadPath = join(outDir, 'preload', 'index.cjs');

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
]);

// Remote content never loads in this app: no new windows, no navigation away, no <webview>; permissions
// are refused below.
app.on('web-contents-created', (_event, contents) => {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event, url) => {
    if (!mayNavigate(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!mayNavigate(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
});

/** What the pointer carries while dragging files out: a 16 × 16 page (startDrag requires an icon). */
const DRAG_ICON =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAGUlEQVR4nGNIaDjwnxLMMGrAqAGjBgwXAwA9Xp8faWEsRAAAAABJRU5ErkJggg==';

function rootFromArgs(argv: readonly string[]): string | null {
  const arg = argv.find((a) => a.startsWith('--modpak-root='));
  return arg ? arg.slice('--modpak-root='.length) : null;
}

function nativeDialogs(getWindow: () => BrowserWindow | null): Dialogs {
  const pick = async (properties: ('openDirectory' | 'openFile')[], title?: string) => {
    const win = getWindow();
    const options = { title, properties };
    const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
    return result.canceled || result.filePaths.length === 0 ? null : result.filePaths[0]!;
  };
  return { pickFolder: (title) => pick(['openDirectory'], title), pickFile: (title) => pick(['openFile'], title) };
}

async function serveRenderer(request: Request): Promise<Response> {
  const rel = appRelativePath(request.url);
  const file = rel === null ? null : await staticFile(rendererDir, rel);
  if (!file) return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } });
  const headers: Record<string, string> = { 'content-type': contentTypeOf(file.path), 'x-content-type-options': 'nosniff' };
  if (file.path.endsWith('.html')) headers['content-security-policy'] = CONTENT_SECURITY_POLICY;
  return new Response(new Uint8Array(file.bytes), { status: 200, headers });
}

async function start(): Promise<void> {
  await app.whenReady();
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  protocol.handle(APP_SCHEME, serveRenderer);

  let window: BrowserWindow | null = null;
  const given = rootFromArgs(process.argv);
  const initialRoot = given ?? (await ensureDemoInstall(join(app.getPath('userData'), 'cache')));
  const host: StudioHost = await createStudioHost({
    facts: { version: app.getVersion(), host: 'electron', initialRoot, demo: given === null },
    recentFile: join(app.getPath('userData'), 'recent.json'),
    dialogs: nativeDialogs(() => window),
    desktop: createDesktop({ shell, contents: () => window?.webContents ?? null, icon: () => nativeImage.createFromDataURL(DRAG_ICON) }),
    places: { home: app.getPath('home'), downloads: app.getPath('downloads'), temp: app.getPath('temp') },
  });
  registerCallHandlers(ipcMain, host);

  const createWindow = () => {
    window = new BrowserWindow({
      width: 1400,
      height: 900,
      title: 'ModPak Studio',
      show: false,
      webPreferences: secureWebPreferences(preloadPath),
    });
    const stopForwarding = forwardEvents(host, window.webContents, isAppUrl);
    window.once('ready-to-show', () => window?.show());
    window.on('closed', () => {
      stopForwarding();
      window = null;
    });
    void window.loadURL(APP_ENTRY);
  };
  createWindow();

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', () => void host.close());
}

start().catch((err: unknown) => {
  dialog.showErrorBox('ModPak Studio could not start', err instanceof Error ? err.message : String(err));
  app.exit(1);
});
