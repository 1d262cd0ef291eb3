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
