import { resolve } from 'node:path';
import { stat } from 'node:fs/promises';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { collect, oneOf } from '../options.js';
import { CliFailure } from '../errors.js';
import { GAME_IDS, type GameId } from '../../../shared/vfs-types.js';
import { studioVersion } from '../../services/locations.js';

/**
 * `modpak mcp ROOT [--game G] [--mod DIR] [--allow-write DIR]…`: a Model Context Protocol server on
 * standard input and output (which then carry nothing but the protocol; messages go to stderr).
 */
export function registerMcpCommand(program: Command, ctx: CliContext): void {
  program
    .command('mcp')
    .description('serve the install to an AI assistant over the Model Context Protocol (stdio)')
    .argument('<root>', 'the game install')
    .option('--game <game>', `the game (${GAME_IDS.join('|')}; default: detected)`, oneOf<GameId>(GAME_IDS))
    .option('--mod <dir>', 'a mod folder under the root, mounted over the game')
    .option('--allow-write <dir>', 'a folder the assistant may write mods into (repeatable); without one, no tool writes', collect, [])
    .action(async (root: string, opts: { game?: GameId; mod?: string; allowWrite: string[] }) => {
      ctx.file = root;
      const abs = resolve(root);
      if (!(await stat(abs)).isDirectory()) throw new CliFailure(root, 'not a folder: give the folder of a game install');
      // Loaded when the command runs: the SDK alone doubled the start-up of every other command.
      const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/stdio.js'),
        import('../../mcp/server.js'),
      ]);
      const mcp = await createMcpServer({
        root: abs,
        game: opts.game,
        mod: opts.mod,
        allowWrite: opts.allowWrite.map((d) => resolve(d)),
        version: studioVersion(),
      });
      const transport = new StdioServerTransport();
      const closed = new Promise<void>((done) => (transport.onclose = done));
      await mcp.server.connect(transport);
      ctx.stderr.write(
        `modpak: MCP server for ${abs} on stdio${opts.allowWrite.length ? `, writing into ${opts.allowWrite.join(', ')}` : ', read-only'}\n`,
      );
      await Promise.race([closed, new Promise<void>((done) => process.stdin.once('end', done))]);
      await mcp.close();
    });
}
