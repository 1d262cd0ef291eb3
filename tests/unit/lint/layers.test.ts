import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The layer map is enforced by `npm run lint`; these prove the rules fire on a back-arrow (and only then),
 * by linting probe sources at paths inside the layers they claim to be in.
 */
const repo = fileURLToPath(new URL('../../..', import.meta.url));
let eslint: ESLint;
let layers: Record<string, string[]>;

beforeAll(async () => {
  eslint = new ESLint({ cwd: repo });
  layers = ((await import(join(repo, 'eslint.config.js'))) as { LAYERS: Record<string, string[]> }).LAYERS;
});

async function ruleIdsFor(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: join(repo, file) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

describe('layer boundaries', () => {
  it('refuses a format importing a service (a back-arrow)', async () => {
    const ids = await ruleIdsFor('electron/formats/lint-probe.ts', "export { openArchive } from '../services/archive-service.js';\n");
    expect(ids).toContain('import-x/no-restricted-paths');
  });

  it('covers a new folder inside a layer without listing it', async () => {
    const ids = await ruleIdsFor(
      'electron/formats/wad/lint-probe.ts',
      "export { openArchive } from '../../services/archive-service.js';\n",
    );
    expect(ids).toContain('import-x/no-restricted-paths');
  });

  it('refuses the renderer importing electron/', async () => {
    const ids = await ruleIdsFor('renderer/lib/lint-probe.ts', "export { openArchive } from '../../electron/formats/index.js';\n");
    expect(ids).toContain('import-x/no-restricted-paths');
  });

  it('refuses shared/ importing electron/ or a Node builtin', async () => {
    expect(await ruleIdsFor('shared/lint-probe.ts', "export { openArchive } from '../electron/formats/index.js';\n")).toContain(
      'import-x/no-restricted-paths',
    );
    expect(await ruleIdsFor('shared/lint-probe.ts', "export { inflateSync } from 'node:zlib';\n")).toContain('no-restricted-imports');
    expect(await ruleIdsFor('shared/assets/lint-probe.ts', "export { readFile } from 'fs/promises';\n")).toContain('no-restricted-imports');
  });

  it('refuses web and main importing each other or the CLI', async () => {
    expect(await ruleIdsFor('electron/main/lint-probe.ts', "export { ensureDemoInstall } from '../web/server.js';\n")).toContain(
      'import-x/no-restricted-paths',
    );
    expect(await ruleIdsFor('electron/web/lint-probe.ts', "export { UsageError } from '../cli/errors.js';\n")).toContain(
      'import-x/no-restricted-paths',
    );
  });

  it('accepts arrows that point down', async () => {
    expect(await ruleIdsFor('electron/services/lint-probe.ts', "export { openArchive } from '../formats/index.js';\n")).toEqual([]);
    expect(await ruleIdsFor('renderer/lib/lint-probe.ts', "export { pathKey } from '../../shared/paths.js';\n")).toEqual([]);
    expect(await ruleIdsFor('electron/cli/lint-probe.ts', "export { startWebHost } from '../web/server.js';\n")).toEqual([]);
  });

  it('gives every folder of electron/ a layer', async () => {
    const folders = (await readdir(join(repo, 'electron'), { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => `electron/${d.name}`);
    expect(folders.filter((f) => !(f in layers))).toEqual([]);
  });
});

describe('import cycles', () => {
  it('refuses two modules importing each other', async () => {
    const dir = join(repo, 'electron', 'vfs', `lint-probe-${process.pid}`);
    await mkdir(dir, { recursive: true });
    try {
      await writeFile(join(dir, 'a.ts'), "import { b } from './b.js';\nexport const a = (): number => b() + 1;\n");
      await writeFile(join(dir, 'b.ts'), "import { a } from './a.js';\nexport const b = (): number => a() - 1;\n");
      const [result] = await eslint.lintFiles([join(dir, 'a.ts')]);
      expect((result?.messages ?? []).map((m) => m.ruleId)).toContain('import-x/no-cycle');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
