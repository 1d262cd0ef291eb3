import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { decodePng } from '../../../shared/assets/png.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { generateDemoInstall } from '../../../electron/demo/demo-install.js';
import { packFolder } from '../../../electron/mods/pack.js';
import { modpakBin, runCli, samplesDir } from '../../helpers/run-cli.js';

/**
 * `modpak mcp` as an assistant uses it: the SDK's client starts `bin/modpak mcp ROOT` over stdio, lists the
 * tools and calls them; every answer is checked against the CLI's JSON for the same question.
 */
let base: string;
let root: string;
let modDir: string;
let client: Client;
let writer: Client;

/** What the servers wrote on stderr (a client shows it to the user): each its one line saying what it serves. */
let serverStderr = '';
const connect = async (args: string[]) => {
  const c = new Client({ name: 'modpak-test', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [modpakBin, 'mcp', ...args], stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => (serverStderr += chunk.toString()));
  await c.connect(transport);
  return c;
};
const text = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as { type: string; text: string }[])[0]!.text;
const json = async (c: Client, name: string, args: Record<string, unknown> = {}) => {
  const result = await c.callTool({ name, arguments: args });
  expect(result.isError, text(result)).toBeFalsy();
  return JSON.parse(text(result));
};
const cliJson = async (args: string[]) => JSON.parse((await runCli(args)).stdout);

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'modpak-mcp-'));
  root = await generateDemoInstall(join(base, 'TA'));
  await mkdir(join(root, 'scripts'));
  await copyFile(join(samplesDir, 'ta', 'armimr', 'scripts', 'ARMIMR.cob'), join(root, 'scripts', 'ARMIMR.cob'));
  modDir = join(base, 'mymod');
  await mkdir(modDir);
  client = await connect([root]);
  writer = await connect([root, '--allow-write', modDir]);
}, 60_000);
afterAll(async () => {
  await client?.close();
  await writer?.close();
  await rm(base, { recursive: true, force: true });
});

describe('modpak mcp', () => {
  it('lists the read tools, each with a description; the write tools only with --allow-write', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual([
      'install_open',
      'install_resolve',
      'install_find',
      'install_read_text',
      'install_tdf',
      'install_defs',
      'install_conflicts',
      'install_check',
      'install_grep',
      'asset_preview',
      'cob_decompile',
      'archive_info',
      'archive_list',
      'archive_read_text',
      'mod_diff',
      'mod_impact',
    ]);
    const writeNames = (await writer.listTools()).tools.map((t) => t.name);
    expect(writeNames).toEqual([...names, 'mod_override', 'mod_write_text', 'mod_export']);
    for (const tool of (await writer.listTools()).tools) expect(tool.description!.length).toBeGreaterThan(20);
  });

  it('answers install_open, install_resolve, install_defs and install_conflicts as the CLI does', async () => {
    const open = await json(client, 'install_open');
    const archives = await cliJson(['mount', 'archives', root, '--json']);
    expect(open.game).toBe(archives.game);
    expect(open.mounted).toEqual(archives.mounted);
    expect(open.ignored).toEqual(archives.ignored);
    expect(await json(client, 'install_resolve', { path: 'units/armcom.fbi' })).toEqual(
      await cliJson(['mount', 'resolve', root, 'units/armcom.fbi', '--json']),
    );
    expect(await json(client, 'install_defs', { kind: 'units' })).toEqual(await cliJson(['mount', 'defs', root, 'units', '--json']));
    expect(await json(client, 'install_conflicts')).toEqual(await cliJson(['mount', 'conflicts', root, '--json']));
    expect(await json(client, 'install_check')).toEqual(await cliJson(['mount', 'check', root, '--json']));
    expect((await json(client, 'install_grep', { pattern: 'maxdamage', ignoreCase: true })).hits).toEqual(
      await cliJson(['mount', 'grep', root, 'maxdamage', '-i', '--json']),
    );
  });

  it('finds by glob, reads text and parses TDF from the winner', async () => {
    const found: { path: string; archive: string | null }[] = await json(client, 'install_find', { glob: 'units/*.fbi' });
    const ls: { path: string; archive: string | null }[] = await cliJson(['mount', 'ls', root, 'units/*.fbi', '--json']);
    expect(found.map((f) => f.path).sort()).toEqual(ls.map((l) => l.path).sort());
    const corcom = found.find((f) => /CORCOM/i.test(f.path))!;
    expect(corcom.archive).toBeNull();
    const source = text(await client.callTool({ name: 'install_read_text', arguments: { path: corcom.path } }));
    expect(source).toBe((await readFile(join(root, 'units', 'CORCOM.fbi'))).toString('latin1'));
    const tdf = await json(client, 'install_tdf', { path: corcom.path });
    expect(tdf.sections[0].name.toUpperCase()).toBe('UNITINFO');
  });

  it('previews a GAF of the install as a PNG, the same pixels as `modpak gaf export`', async () => {
    const result = await client.callTool({ name: 'asset_preview', arguments: { path: 'anims/DEMOFX.gaf' } });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const [image, facts] = result.content as [{ type: string; data: string; mimeType: string }, { type: string; text: string }];
    expect(image.type).toBe('image');
    expect(image.mimeType).toBe('image/png');
    expect(facts.text).toMatch(/from rev31\.gp3/);
    const out = join(base, 'gaf-export');
    const run = await runCli(['gaf', 'export', 'anims/DEMOFX.gaf', '--install', root, '-t', out]);
    expect(run.code, run.stderr).toBe(0);
    const first = (await readdir(out)).sort()[0]!;
    const cli = decodePng(new Uint8Array(await readFile(join(out, first, '0.png'))));
    expect(decodePng(new Uint8Array(Buffer.from(image.data, 'base64')))).toEqual(cli);
    const missing = await client.callTool({ name: 'asset_preview', arguments: { path: 'anims/DEMOFX.gaf', frame: 999 } });
    expect(missing.isError).toBe(true);
  });

  it('decompiles a unit script of the install as `modpak cob decompile` does', async () => {
    const bos = text(await client.callTool({ name: 'cob_decompile', arguments: { path: 'scripts/armimr.cob' } }));
    expect(bos).toBe((await runCli(['cob', 'decompile', join(root, 'scripts', 'ARMIMR.cob')])).stdout);
    expect(bos).toMatch(/^piece /m);
  });

  it('lists and reads one archive of the install, as `modpak list --json` does', async () => {
    const archive = join(root, 'rev31.gp3');
    const listed: { path: string }[] = await json(client, 'archive_list', { path: archive });
    const cli: { path: string }[] = await cliJson(['list', archive, '--json']);
    expect(listed.map((e) => e.path)).toEqual(cli.map((e) => e.path));
    const info = await json(client, 'archive_info', { path: archive });
    expect(info.format).toBe('hpi');
  });

  it('refuses a path outside the install, a write without --allow-write, and a malformed argument', async () => {
    const outside = await client.callTool({ name: 'archive_list', arguments: { path: '/etc/passwd' } });
    expect(outside.isError).toBe(true);
    expect(text(outside)).toMatch(/not an opened install or --allow-write folder/);
    await expect(client.callTool({ name: 'mod_write_text', arguments: { dir: modDir, path: 'a.txt', text: 'x' } })).resolves.toMatchObject({
      isError: true,
    });
    const elsewhere = await writer.callTool({
      name: 'mod_write_text',
      arguments: { dir: join(base, 'elsewhere'), path: 'a.txt', text: 'x' },
    });
    expect(elsewhere.isError).toBe(true);
    const malformed = await client.callTool({ name: 'install_resolve', arguments: { path: 42 } });
    expect(malformed.isError).toBe(true);
    // The server is still up after every refusal.
    expect((await json(client, 'install_resolve', { path: 'totala.ini' })).winner.archive).toBeNull();
  });

  it('overrides, writes and exports a mod only inside an --allow-write folder, and the diff sees it', async () => {
    const override = await json(writer, 'mod_override', { dir: modDir, path: 'units/ARMCOM.fbi' });
    expect(override.from).not.toBeNull();
    await json(writer, 'mod_write_text', {
      dir: modDir,
      path: 'units/ARMCOM.fbi',
      text: '[UNITINFO]\r\n{\r\n\tUnitName=ARMCOM;\r\n\tMaxDamage=9999;\r\n}\r\n',
    });
    const diff: { path: string; status: string }[] = await json(writer, 'mod_diff', { dir: modDir });
    expect(diff.find((d) => /ARMCOM/i.test(d.path))?.status).toBe('modified');
    const target = join(modDir, '..', 'mymod-out', 'mymod.ufo');
    const refused = await writer.callTool({ name: 'mod_export', arguments: { dir: modDir, target } });
    expect(refused.isError).toBe(true);
    const inside = join(modDir, 'mymod.ufo');
    const exported = await json(writer, 'mod_export', { dir: modDir, target: inside });
    expect(exported.files).toBeGreaterThan(0);
    expect((await runCli(['list', inside])).stdout).toMatch(/ARMCOM/i);
  });

  it("mod_export writes for the install's game unless told: a Daikatana install gets a Daikatana PAK", async () => {
    // A Daikatana install (detected by daikatana.exe) whose data/pak0.pak is Daikatana's own.
    const dkRoot = join(base, 'Daikatana');
    const dkBase = join(base, 'dk-base');
    await mkdir(join(dkBase, 'scripts'), { recursive: true });
    await writeFile(join(dkBase, 'scripts', 'base.txt'), 'base');
    await mkdir(join(dkRoot, 'data'), { recursive: true });
    await writeFile(join(dkRoot, 'daikatana.exe'), 'MZ');
    await packFolder({ dir: dkBase, target: join(dkRoot, 'data', 'pak0.pak'), format: 'daikatana' });
    const dkMod = join(base, 'dk-mod');
    const dkOut = join(base, 'dk-out');
    await mkdir(dkMod);
    await mkdir(dkOut);
    const dk = await connect([dkRoot, '--allow-write', dkMod, '--allow-write', dkOut]);
    try {
      expect((await json(dk, 'install_open')).game).toBe('daikatana');
      await json(dk, 'mod_write_text', { dir: dkMod, path: 'scripts/mine.txt', text: 'my mod\n' });
      // formats.md: a PAK's header is 'PACK', directory offset, directory length; Daikatana's entries are
      // 72 bytes (name[56], offset, length, packed length, compressed), Quake's 64 (name[56], offset, length).
      const directory = async (target: string) => {
        const file = await readFile(target);
        expect(file.subarray(0, 4).toString('latin1')).toBe('PACK');
        return { offset: file.readInt32LE(4), length: file.readInt32LE(8), file };
      };
      const byDefault = join(dkOut, 'pak1.pak');
      expect((await json(dk, 'mod_export', { dir: dkMod, target: byDefault })).files).toBe(1);
      const dir = await directory(byDefault);
      expect(dir.length).toBe(72);
      expect(dir.file.subarray(dir.offset, dir.offset + 16).toString('latin1')).toBe('scripts/mine.txt');
      expect((await cliJson(['info', byDefault, '--json'])).format).toBe('daikatana');
      // A game the caller names still decides.
      const asQuake = join(dkOut, 'pak2.pak');
      await json(dk, 'mod_export', { dir: dkMod, target: asQuake, game: 'quake' });
      expect((await directory(asQuake)).length).toBe(64);
      expect((await cliJson(['info', asQuake, '--json'])).format).toBe('pak');
    } finally {
      await dk.close();
    }
  });

  it('serves the mount order and winning text files as resources', async () => {
    const { resources } = await client.listResources();
    const order = resources.find((r) => r.name === 'mount-order')!;
    const body = await client.readResource({ uri: order.uri });
    expect(JSON.parse((body.contents[0] as { text: string }).text).mounted[0].archive).toBe('rev31.gp3');
    const { resources: files } = await client.listResources();
    const fbi = files.find((r) => /CORCOM\.fbi$/i.test(r.uri))!;
    const read = await client.readResource({ uri: fbi.uri });
    expect((read.contents[0] as { text: string }).text).toContain('Loose commander');
  });

  it("writes on stderr only the line saying what it serves (no warning of node's either)", async () => {
    await json(client, 'install_open');
    const lines = serverStderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(line).toMatch(/^modpak: MCP server for .* on stdio, (read-only|writing into .*)$/);
  });
});
