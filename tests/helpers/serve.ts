import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `modpak serve ARGS…` as a user starts it: the real bin/modpak in a child process. Resolves with the URL
 * it prints (with its token) once it listens; `stop()` ends it by its own pid (SIGTERM, then SIGKILL after
 * 5 s) and waits for it to exit. The browser tests (tests/e2e/server.ts) and the benchmarks (bench/util.ts)
 * both start it here.
 */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface ServeChild {
  url: string;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

export async function serveAndWait(args: string[], env: NodeJS.ProcessEnv = process.env, timeoutMs = 60_000): Promise<ServeChild> {
  const child = spawn(process.execPath, [join(repoRoot, 'bin', 'modpak'), 'serve', ...args], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`modpak serve printed no URL in ${timeoutMs / 1000} s:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/m.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`modpak serve exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
