/**
 * `modpak mcp`: what an assistant waits for. The server starts as an assistant starts it (`bin/modpak mcp
 * ROOT` over stdio, the SDK's client), on the generated full install (16 archives, 60,000 entries); the
 * figures are the time to the first answer (process start, mount, handshake) and the round trip of
 * `install_resolve` through the protocol, median of 200.
 */
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fileURLToPath } from 'node:url';
import { figure, fullInstall } from './util.js';

const modpak = fileURLToPath(new URL('../bin/modpak', import.meta.url));

export async function run(): Promise<void> {
  const root = await fullInstall();
  const started = performance.now();
  const client = new Client({ name: 'modpak-bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [modpak, 'mcp', root], stderr: 'ignore' }));
  const found = await client.callTool({ name: 'install_find', arguments: { glob: 'units/*', limit: 200 } });
  const paths = (JSON.parse((found.content as { text: string }[])[0]!.text) as { path: string }[]).map((p) => p.path);
  figure('mcp: start, mount, first answer', `${(performance.now() - started).toFixed(0)} ms`);
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    await client.callTool({ name: 'install_resolve', arguments: { path: paths[i % paths.length]! } });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  figure('mcp: install_resolve round trip, median', `${times[100]!.toFixed(2)} ms`, '< 10 ms');
  figure('mcp: install_resolve round trip, p95', `${times[190]!.toFixed(2)} ms`);
  await client.close();
}
