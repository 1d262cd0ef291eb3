import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveAndWait } from '../../helpers/serve.js';
import { samplesDir } from '../../helpers/run-cli.js';

/** The one serve-and-wait the browser tests and the benchmarks start `modpak serve` with. */
let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'modpak-serve-wait-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('serveAndWait', () => {
  it('resolves with the printed URL once the host answers, and stop() ends the process', async () => {
    const serve = await serveAndWait([join(samplesDir, 'hpi'), '--port', '0', '--state', join(scratch, 'state')]);
    try {
      expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/);
      const res = await fetch(serve.url);
      expect(res.status).toBe(200);
    } finally {
      await serve.stop();
    }
    await expect(fetch(serve.url)).rejects.toThrow();
  });
});
