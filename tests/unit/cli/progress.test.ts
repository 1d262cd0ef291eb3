import { describe, expect, it } from 'vitest';
import { formatDuration, progressLine, terminalProgress } from '../../../electron/cli/progress.js';
import { runCli } from '../../helpers/run-cli.js';
import { readFileSync } from 'node:fs';

describe('the terminal progress bar', () => {
  it('shows the rate and the time left from the work done so far', () => {
    // 250 of 1000 files in 5 s: 50 files/s, 750 left → 15 s.
    const line = progressLine('extract', 250, 1000, 'units/ARMCOM.FBI', 5000, 200);
    expect(line).toBe(`extract ${'█'.repeat(8)}${'░'.repeat(22)} 250/1000 50.0/s, 0:15 left units/ARMCOM.FBI`);
    expect(progressLine('pack', 1000, 1000, '', 125_000, 200)).toMatch(/1000\/1000 8\.0\/s, 2:05$/);
    expect(progressLine('pack', 0, 10, '', 10, 200)).toMatch(/0\/10$/);
    expect(progressLine('x', 5, 10, 'a'.repeat(300), 1000, 80).length).toBe(79);
  });

  it('formats durations past an hour', () => {
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDuration(59.6)).toBe('1:00');
  });

  it('draws only on a terminal, at most ten times a second, and clears itself', () => {
    let clock = 0;
    const written: string[] = [];
    const tty = { isTTY: true, columns: 120, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
    const bar = terminalProgress('verify', tty, () => clock);
    clock = 1000;
    bar.update(10, 100);
    clock = 1050;
    bar.update(11, 100);
    clock = 2000;
    bar.update(20, 100);
    bar.done();
    expect(written).toHaveLength(3);
    expect(written[1]).toContain('20/100 10.0/s, 0:08 left');
    expect(written[2]).toBe('\r\x1b[K');
    const pipe = {
      isTTY: false,
      write: () => {
        throw new Error('no drawing on a pipe');
      },
    } as unknown as NodeJS.WriteStream;
    terminalProgress('x', pipe).update(1, 2);
  });
});

describe('modpak --version', () => {
  it("prints the package's version", async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    const run = await runCli(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(pkg.version);
  });
});
