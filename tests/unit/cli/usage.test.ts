import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';

describe('modpak CLI contract', () => {
  it('exits 2 on a usage error', async () => {
    const r = await runCli(['info']);
    expect(r.code).toBe(2);
  });
  it('exits 1 with one line naming the file when the file is missing', async () => {
    const r = await runCli(['info', '/nonexistent/x.hpi']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^modpak: \/nonexistent\/x\.hpi: /);
  });
  it('refuses bytes that are no archive with one clean line', async () => {
    const r = await runCli(['info', import.meta.filename]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not a recognised archive/);
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe('modpak as a pipeline stage', () => {
  it('ends quietly when the reader closes the pipe early (modpak list | head)', async () => {
    const { spawn } = await import('node:child_process');
    const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { modpakBin } = await import('../../helpers/run-cli.js');
    const dir = await mkdtemp(join(tmpdir(), 'modpak-pipe-'));
    try {
      await mkdir(join(dir, 'src'));
      for (let i = 0; i < 4000; i++) await writeFile(join(dir, 'src', `file-with-a-long-name-${i}.txt`), 'x');
      expect((await runCli(['pack', join(dir, 'src'), '--target', join(dir, 'a.hpi'), '--method', 'none'])).code).toBe(0);
      const child = spawn(process.execPath, [modpakBin, 'list', join(dir, 'a.hpi')], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      // Like `head -1`: read one chunk, then close our end while modpak is still writing.
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      child.stdout.destroy();
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(stderr).toBe('');
      expect(code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('bin/modpak start-up', () => {
  it('runs from the bundle as built, which `node bin/cli-bundle.mjs` (prepare) rebuilds only when a source is newer', async () => {
    const { stat, utimes } = await import('node:fs/promises');
    const { execFileSync } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const { runBin, samplesDir } = await import('../../helpers/run-cli.js');
    const bundle = fileURLToPath(new URL('../../../out/cli/modpak.cjs', import.meta.url));
    const builder = fileURLToPath(new URL('../../../bin/cli-bundle.mjs', import.meta.url));
    const sample = `${samplesDir}hpi/ArmImp.ufo`;
    expect((await runBin(['info', sample, '--json'])).code).toBe(0);
    // Pretend the bundle predates every source: starting the CLI does not look (it runs it as it is)...
    await utimes(bundle, new Date(1000), new Date(1000));
    const r = await runBin(['info', sample, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ format: 'hpi', version: 1 });
    expect((await stat(bundle)).mtimeMs).toBe(1000);
    // ...the builder rebuilds it, and a second run of the builder leaves the fresh bundle alone.
    execFileSync(process.execPath, [builder]);
    const rebuilt = (await stat(bundle)).mtimeMs;
    expect(rebuilt).toBeGreaterThan(Date.now() - 60_000);
    execFileSync(process.execPath, [builder]);
    expect((await stat(bundle)).mtimeMs).toBe(rebuilt);
    expect((await runBin(['info', sample, '--json'])).code).toBe(0);
  });

  it("starts from the code cache the builder made for the new bundle, under the shebang's own flags", async () => {
    const { execFile, execFileSync } = await import('node:child_process');
    const { readdir, utimes } = await import('node:fs/promises');
    const { fileURLToPath } = await import('node:url');
    const { modpakBin, samplesDir } = await import('../../helpers/run-cli.js');
    const bundle = fileURLToPath(new URL('../../../out/cli/modpak.cjs', import.meta.url));
    const caches = fileURLToPath(new URL('../../../out/cli/code-cache/', import.meta.url));
    await utimes(bundle, new Date(1000), new Date(1000));
    execFileSync(process.execPath, [fileURLToPath(new URL('../../../bin/cli-bundle.mjs', import.meta.url))]);
    // The rebuild emptied the folder and the warm-up wrote the new bundle's cache (more may follow: other
    // tests start node bin/modpak without the shebang's flags, and each set of flags keeps its own).
    expect((await readdir(caches)).filter((n) => n.endsWith('.cache')).length).toBeGreaterThanOrEqual(1);
    const env = { ...process.env, MODPAK_DEBUG: '1' };
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(modpakBin, ['info', `${samplesDir}hpi/ArmImp.ufo`, '--json'], { env }, (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(run.stderr).toBe('modpak: debug: code cache used\n');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ format: 'hpi', version: 1 });
  });
});

describe('bin/modpak worker threads', () => {
  it('start from the worker bundles kept beside the CLI bundle, made once, not bundled afresh at each start', async () => {
    const { existsSync } = await import('node:fs');
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { fileURLToPath } = await import('node:url');
    const { runBin, samplesDir } = await import('../../helpers/run-cli.js');
    const dir = await mkdtemp(join(tmpdir(), 'modpak-kept-workers-'));
    try {
      const r = await runBin(['extract', `${samplesDir}hpi/ta3d.hpi`, '-t', dir, '--threads', '2']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/on 2 threads/);
      const kept = fileURLToPath(new URL('../../../out/cli/workers/planned-extract-worker.mjs', import.meta.url));
      expect(existsSync(kept)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('bin/modpak as an executable', () => {
  it('runs through its own shebang, with the node flag that keeps the young generation small (streaming)', async () => {
    const { execFile } = await import('node:child_process');
    const { readFile } = await import('node:fs/promises');
    const { modpakBin, samplesDir } = await import('../../helpers/run-cli.js');
    const shebang = (await readFile(modpakBin, 'utf8')).split('\n')[0]!;
    expect(shebang).toMatch(/^#!\/usr\/bin\/env -S NODE_EXTRA_CA_CERTS= node .*--max-semi-space-size=\d+/);
    // Executed directly, as `./bin/modpak` or npm's bin link runs it: env must accept -S and node the flags.
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(modpakBin, ['info', `${samplesDir}hpi/ArmImp.ufo`, '--json'], (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ format: 'hpi', version: 1 });
  });

  it('does not load the certificate bundle NODE_EXTRA_CA_CERTS names (modpak opens no TLS connection)', async () => {
    const { execFile } = await import('node:child_process');
    const { modpakBin, samplesDir } = await import('../../helpers/run-cli.js');
    // Node warns on stderr at start when the bundle it was told to load is missing: it would have read it.
    const env = { ...process.env, NODE_EXTRA_CA_CERTS: '/nonexistent/modpak-test-ca.pem' };
    const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(modpakBin, ['info', `${samplesDir}hpi/ArmImp.ufo`], { env }, (err, _stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stderr }),
      );
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it("runs on V8's default flags once started, so its workers and built-in modules use node's code cache", async () => {
    const { execFile, execFileSync } = await import('node:child_process');
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { modpakBin } = await import('../../helpers/run-cli.js');
    const dir = await mkdtemp(join(tmpdir(), 'modpak-flags-'));
    try {
      // V8 rejects code cached under other flags than its own (the shebang's heap flag made every worker
      // compile node's internals afresh). A plain node caches a script; the probe, preloaded into the
      // process, compiles it with that cache as the process ends.
      const source = 'globalThis.probed = 1 + 1';
      const env = { ...process.env, NODE_OPTIONS: '' };
      const cache = execFileSync(
        process.execPath,
        ['-e', `process.stdout.write(new (require('node:vm').Script)(${JSON.stringify(source)}).createCachedData())`],
        { env },
      );
      await writeFile(join(dir, 'cache.bin'), cache);
      const probe = join(dir, 'probe.mjs');
      await writeFile(
        probe,
        `import { readFileSync } from 'node:fs'; import { Script } from 'node:vm'; import { isMainThread } from 'node:worker_threads';
if (isMainThread) process.once('beforeExit', () => {
  const script = new Script(${JSON.stringify(source)}, { cachedData: readFileSync(${JSON.stringify(join(dir, 'cache.bin'))}) });
  process.stderr.write('cache-rejected=' + script.cachedDataRejected + '\\n');
});`,
      );
      const rejected = (file: string, args: string[]) =>
        new Promise<string>((resolve) =>
          execFile(file, args, { env: { ...env, NODE_OPTIONS: `--import=${probe}` } }, (_err, _stdout, stderr) => resolve(stderr)),
        );
      // The probe tells: the shebang's flag, left in force, fails it.
      expect(await rejected(process.execPath, ['--max-semi-space-size=1', '-e', '0'])).toBe('cache-rejected=true\n');
      expect(await rejected(modpakBin, ['--version'])).toBe('cache-rejected=false\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("bin/modpak's V8 settings", () => {
  it('holds a 30,000-entry directory without a full collection; scavenges and workers compile on their own thread', async () => {
    const { spawnSync } = await import('node:child_process');
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { modpakBin, modpakNodeFlags } = await import('../../helpers/run-cli.js');
    const { packFile, packToBytes } = await import('../formats/hpi/fixtures.js');
    const dir = await mkdtemp(join(tmpdir(), 'modpak-heap-'));
    try {
      const archive = join(dir, 'many.hpi');
      const files = Array.from({ length: 30_000 }, (_, i) => packFile(`folder${i % 10}/file${i}.txt`, `file ${i}\r\n`));
      await writeFile(archive, await packToBytes(files));
      // V8 prints a line per collection on stdout with --trace-gc-nvp: `gc=mc` a full one, `gc=s` a
      // scavenge with the time its helper threads took. Listing holds the directory and writes 30,000 lines.
      const collections = (flags: string[]) => {
        const run = spawnSync(process.execPath, [...flags, '--trace-gc-nvp', modpakBin, 'list', archive], { encoding: 'utf8' });
        expect(run.status, run.stderr).toBe(0);
        const lines = run.stdout.split('\n');
        return {
          full: lines.filter((line) => / gc=mc /.test(line)).length,
          scavenges: lines
            .filter((line) => / gc=s /.test(line))
            .map((line) => Number(/background\.scavenge\.parallel=([\d.]+)/.exec(line)?.[1])),
        };
      };
      const flags = modpakNodeFlags();
      expect(flags).toEqual(expect.arrayContaining(['--initial-old-space-size=32', '--no-parallel-scavenge']));
      const asShipped = collections(flags);
      expect(asShipped.full).toBe(0);
      expect(asShipped.scavenges.length).toBeGreaterThan(5);
      expect(asShipped.scavenges.every((helpers) => helpers === 0)).toBe(true);
      // Without the old generation's starting size, V8's first limit is met and the whole heap collected.
      expect(collections(flags.filter((f) => !f.startsWith('--initial-old-space-size'))).full).toBeGreaterThan(0);

      // Verifying it takes a worker thread (1,000 files to decode or more), whose bundle the first run makes
      // if no test made it before. With --trace-opt V8 says how each optimizing compile runs: the worker's on
      // its own thread, this thread's beside it.
      expect(spawnSync(process.execPath, [...flags, modpakBin, 'verify', archive]).status).toBe(0);
      const verify = spawnSync(process.execPath, [...flags, '--trace-opt', modpakBin, 'verify', archive], { encoding: 'utf8' });
      expect(verify.status, verify.stderr).toBe(0);
      const modes = new Set(verify.stdout.match(/ConcurrencyMode::k\w+/g));
      expect(modes).toEqual(new Set(['ConcurrencyMode::kConcurrent', 'ConcurrencyMode::kSynchronous']));
      // node alone (no flag set after start) compiles every one beside the thread that runs it.
      const plain = spawnSync(process.execPath, [...flags, '--trace-opt', '-e', 'for (let i = 0; i < 1e6; i++) Math.hypot(i, 1)'], {
        encoding: 'utf8',
      });
      expect(new Set(plain.stdout.match(/ConcurrencyMode::k\w+/g))).toEqual(new Set(['ConcurrencyMode::kConcurrent']));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('a target that cannot be created', () => {
  it('pack --target /proc/x.ufo says why, about the target, not a temporary file', async () => {
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'modpak-proc-'));
    await writeFile(join(dir, 'a.txt'), 'a');
    const r = await runCli(['pack', dir, '--target', '/proc/x.ufo']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('cannot create /proc/x.ufo: /proc does not accept new files');
    expect(r.stderr).not.toMatch(/\.tmp|no such file/);
    const missing = await runCli(['pack', dir, '--target', join(dir, 'no', 'x.ufo')]);
    expect(missing.stderr).toContain(`the folder ${join(dir, 'no')} does not exist`);
  });
});
