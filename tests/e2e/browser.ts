import { existsSync } from 'node:fs';

/**
 * Which Chromium the browser tests and the studio benchmark drive. Playwright never downloads one: the
 * order is MODPAK_CHROMIUM, then Debian's /usr/bin/chromium, then the Chromium that the
 * @sparticuz/chromium npm package ships inside itself (unpacked to the temp folder on first use, ~5 s), so
 * `npm install && npm test` passes on a machine with nothing but Node and npm.
 */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

export async function findChromium(): Promise<{ path: string; source: string }> {
  const given = process.env.MODPAK_CHROMIUM;
  if (given) return { path: given, source: 'MODPAK_CHROMIUM' };
  if (existsSync(DEBIAN_CHROMIUM)) return { path: DEBIAN_CHROMIUM, source: "Debian's chromium" };
  const { default: bundled } = await import('@sparticuz/chromium');
  return { path: await bundled.executablePath(), source: 'the Chromium inside @sparticuz/chromium' };
}

/** Flags for a closed network and a root user: without the networking ones Chromium floods refused connections. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];
