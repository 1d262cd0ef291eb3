import { CONTENT_SECURITY_POLICY } from '../services/host/csp.js';

/**
 * The Electron window's security rules as plain data and functions, so they are unit-tested without
 * Electron. index.ts applies them.
 */
export const APP_SCHEME = 'modpak';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY = `${APP_ORIGIN}/index.html`;
export { CONTENT_SECURITY_POLICY };

/** webPreferences for the one window: isolated, sandboxed, no Node, no remote content features. */
export function secureWebPreferences(preload: string) {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    experimentalFeatures: false,
  } as const;
}

/** Whether a URL belongs to the app (the custom protocol's one host). */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

/**
 * Navigation guard: the window may only (re)load the app's own entry page; every other navigation
 * (links, drags, redirects, window.location) is blocked.
 */
export function mayNavigate(url: string): boolean {
  if (!isAppUrl(url)) return false;
  const parsed = new URL(url);
  return parsed.pathname === '/' || parsed.pathname === '/index.html';
}

/**
 * Whether an IPC message comes from the app's own top frame. `senderFrame` is null when the frame has
 * navigated away or been destroyed; a subframe (an iframe, should one ever appear) is refused too.
 */
export function isTrustedSender(frame: { url: string; parent: unknown } | null | undefined): boolean {
  return frame != null && frame.parent === null && isAppUrl(frame.url);
}

/** The relative file a modpak://app/… URL asks for (`/` is index.html); null for other hosts. */
export function appRelativePath(url: string): string | null {
  if (!isAppUrl(url)) return null;
  const { pathname } = new URL(url);
  return pathname === '/' ? '/index.html' : pathname;
}
