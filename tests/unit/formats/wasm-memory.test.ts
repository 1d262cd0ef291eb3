import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { wasmInstances } from '../../../electron/formats/common/wasm.js';
import { WASM_BASE64 as LZ_WINDOW } from '../../../electron/formats/common/wasm/lz-window.wasm.js';
import { WASM_BASE64 as HPI_CIPHER } from '../../../electron/formats/hpi/wasm/cipher.wasm.js';
import { WASM_BASE64 as DK_STREAM } from '../../../electron/formats/daikatana/wasm/stream.wasm.js';
import { WASM_BASE64 as DK_ENCODE } from '../../../electron/formats/daikatana/wasm/encode.wasm.js';
import { modpakBin, modpakNodeFlags, samplesDir } from '../../helpers/run-cli.js';

/** What V8 prints (with --trace-protector-invalidation) the first time a thread detaches an ArrayBuffer. */
const DETACHED = 'Invalidating protector cell ArrayBufferDetaching';

const modules = [
  ['lz-window', LZ_WINDOW, 2 << 20],
  ['hpi cipher', HPI_CIPHER, 1 << 20],
  ['daikatana stream', DK_STREAM, 2 << 20],
  ['daikatana encode', DK_ENCODE, 8 << 20],
] as const;

describe('codec memory', () => {
  it.each(modules)('%s: no call detaches the memory of an earlier one', (_name, base64, kept) => {
    const workspace = wasmInstances<object>(base64, kept);
    const small = workspace(100);
    // More than any module declares (7 pages at most), within what the thread keeps.
    const larger = workspace(kept - 1000);
    expect(small.heap.buffer.byteLength).toBeGreaterThanOrEqual(kept);
    expect(larger.heap.buffer).toBe(small.heap.buffer);
    // Past what the thread keeps: an instance of its own, sized for the call, and the kept one untouched.
    const own = workspace(kept + 70_000);
    expect(own.heap.buffer).not.toBe(small.heap.buffer);
    expect(own.heap.length).toBeGreaterThanOrEqual(kept + 70_000);
    expect(small.heap.buffer.byteLength).toBeGreaterThanOrEqual(kept);
    expect(workspace(100).heap.buffer).toBe(small.heap.buffer);
  });
});

describe('extraction detaches no buffer', () => {
  let work: string;
  const samples = [
    'quake-assets/quake/cr8_czg.wad',
    'ta/gaf/Alien.gaf',
    'quake-assets/quake2/pics/colormap.pcx',
    'pak/quake/quakespasm-0.95.1.pak',
  ];
  /** `bin/modpak ARGS` as its shebang starts it, with V8 saying when a buffer is first detached in a thread. */
  const traced = (args: string[]) =>
    spawnSync(process.execPath, [...modpakNodeFlags(), '--trace-protector-invalidation', modpakBin, ...args], { encoding: 'utf8' });

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'wasm-memory-'));
    await mkdir(join(work, 'in'));
    for (const s of samples) await copyFile(join(samplesDir, s), join(work, 'in', basename(s)));
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('V8 reports a detached buffer under the flag (so the check below can fail)', () => {
    const r = spawnSync(process.execPath, ['--trace-protector-invalidation', '-e', 'new WebAssembly.Memory({ initial: 1 }).grow(1)'], {
      encoding: 'utf8',
    });
    expect(r.stdout + r.stderr).toContain(DETACHED);
  });

  it('extracts and verifies an LZ77 archive of real files on two threads without detaching one', async () => {
    const archive = join(work, 'real.hpi');
    // Enciphered LZ77 in 64 KiB chunks: the cipher and the decoder both work on more than a page.
    const pack = traced(['pack', join(work, 'in'), '-t', archive, '--method', 'lz77']);
    expect(pack.status, pack.stderr).toBe(0);
    const extract = traced(['extract', archive, '-t', join(work, 'out'), '--threads', '2']);
    expect(extract.status, extract.stderr).toBe(0);
    expect(extract.stderr).toMatch(/extracted 4 files .* on 2 threads/);
    expect(extract.stdout + extract.stderr).not.toContain(DETACHED);
    for (const s of samples) {
      const [got, want] = await Promise.all([readFile(join(work, 'out', basename(s))), readFile(join(samplesDir, s))]);
      expect(got.equals(want), s).toBe(true);
    }
    const verify = traced(['verify', archive]);
    expect(verify.status, verify.stderr).toBe(0);
    expect(verify.stdout + verify.stderr).not.toContain(DETACHED);
  });
});
