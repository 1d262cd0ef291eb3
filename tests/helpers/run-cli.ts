import { PassThrough } from 'node:stream';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { main } from '../../electron/cli/main.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  stdoutBytes: Buffer;
}

/** Run the CLI in-process (fast) with captured stdout/stderr. */
export async function runCli(args: string[]): Promise<CliRun> {
  const out = new PassThrough();
  const err = new PassThrough();
  const outChunks: Buffer[] = [];
  const errChunks: Buffer[] = [];
  out.on('data', (c: Buffer) => outChunks.push(c));
  err.on('data', (c: Buffer) => errChunks.push(c));
  const code = await main(args, { stdout: out, stderr: err as unknown as NodeJS.WriteStream });
  const stdoutBytes = Buffer.concat(outChunks);
  return { code, stdout: stdoutBytes.toString('utf8'), stderr: Buffer.concat(errChunks).toString('utf8'), stdoutBytes };
}

export const modpakBin = fileURLToPath(new URL('../../bin/modpak', import.meta.url));

export { modpakNodeFlags } from '../../bin/node-flags.cjs';

/** Run the real `bin/modpak` as a child process, as a user would. */
export function runBin(args: string[], options: { cwd?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [modpakBin, ...args], { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const stdoutBytes = Buffer.concat(out);
      resolve({ code: code ?? -1, stdout: stdoutBytes.toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), stdoutBytes });
    });
  });
}

/** The shared sample archives (CI has them beside the clone). */
export const samplesDir = fileURLToPath(new URL('../../../shared/samples/', import.meta.url));
