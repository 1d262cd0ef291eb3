import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const builder = fileURLToPath(new URL('../../../../bin/wasm-build.mjs', import.meta.url));

describe('the WebAssembly codecs kept in the repository', () => {
  it('are exactly what their .wat sources assemble to', async () => {
    // Exits 1 naming each NAME.wasm.ts whose bytes differ from its NAME.wat's (an edit not rebuilt).
    const { stderr } = await promisify(execFile)(process.execPath, [builder, '--check']);
    expect(stderr).toBe('');
  });
});
