import { stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { parseInteger } from '../options.js';
import { CliFailure } from '../errors.js';
import { defaultRendererDir, repoRoot, stateDir, studioVersion } from '../../services/locations.js';

/**
 * `modpak serve [ROOT] [--port N]`: the studio in a browser (local web host, token-guarded).
 * `modpak studio [ROOT]`: the studio in Electron, where its binary exists.
 * Without ROOT both open the generated demo install.
 */
export function registerStudioCommands(program: Command, ctx: CliContext): void {
  program
    .command('serve')
    .description('serve the studio to a browser on 127.0.0.1 (prints the URL with its token)')
    .argument('[root]', 'the game install to open (default: a generated demo install)')
    .option('--port <n>', 'the port (default: a free one)', parseInteger)
    .option('--renderer <dir>', 'the built renderer to serve (default: out/renderer)')
    .option('--state <dir>', 'where recent installs are kept (default: the user state folder)')
    .action(async (root: string | undefined, opts: { port?: number; renderer?: string; state?: string }) => {
      // Loaded when the command runs: the host, the web server and their dependencies would otherwise
      // be compiled at every start of every command (start-up, issue 15).
      const [{ createStudioHost }, { startWebHost }, { buildRenderer }] = await Promise.all([
        import('../../services/handlers/index.js'),
        import('../../web/server.js'),
        import('../../main/bundle.js'),
      ]);
      const initial = await initialRoot(root, ctx);
      const rendererDir = resolve(opts.renderer ?? defaultRendererDir());
      const host = await createStudioHost({
        facts: {
          version: studioVersion(),
          host: 'web',
          initialRoot: initial.root,
          demo: initial.demo,
          cli: join(repoRoot(), 'bin', 'modpak'),
        },
        recentFile: join(resolve(opts.state ?? stateDir()), 'recent.json'),
      });
      const web = await startWebHost({ host, rendererDir, port: opts.port }).catch((err: NodeJS.ErrnoException) => {
        void host.close();
        throw new CliFailure(null, err.code === 'EADDRINUSE' ? `port ${opts.port} is in use` : err.message);
      });
      // The port is ours; a fresh clone has no built renderer yet, so build it once (a few seconds).
      if (!existsSync(join(rendererDir, 'index.html'))) {
        if (opts.renderer) ctx.warn(`the renderer is not built (${rendererDir}): run npm run build:renderer`);
        else {
          ctx.stderr.write('building the renderer (first run)…\n');
          await buildRenderer(repoRoot()).catch((err: Error) =>
            ctx.warn(`could not build the renderer (${err.message}): run npm run build:renderer`),
          );
        }
      }
      ctx.print(`ModPak Studio (${initial.demo ? 'demo install' : 'install'} ${initial.root}) is served at:`);
      ctx.print(web.url);
      ctx.print('Open it in a browser on this machine; Ctrl+C stops the server.');
      await untilStopped();
      await web.close();
      await host.close();
    });

  program
    .command('studio')
    .description('open the studio in Electron (where its binary is missing, use `npm run web`)')
    .argument('[root]', 'the game install to open (default: a generated demo install)')
    .action(async (root: string | undefined) => {
      const { ElectronMissingError, launchElectronStudio } = await import('../../main/launch.js');
      const code = await launchElectronStudio({
        root: root === undefined ? null : resolve(root),
        log: (line) => ctx.stderr.write(`${line}\n`),
      }).catch((err: unknown) => {
        throw err instanceof ElectronMissingError ? new CliFailure(null, err.message) : err;
      });
      if (code !== 0) throw new CliFailure(null, `Electron exited with status ${code}`);
    });
}

async function initialRoot(root: string | undefined, ctx: CliContext): Promise<{ root: string; demo: boolean }> {
  if (root === undefined) return { root: await (await import('../../services/studio-demo.js')).ensureDemoInstall(), demo: true };
  ctx.file = root;
  const abs = resolve(root);
  const info = await stat(abs);
  if (!info.isDirectory()) throw new CliFailure(root, 'not a folder: give the folder of a game install');
  ctx.file = null;
  return { root: abs, demo: false };
}

/** Resolve on Ctrl+C or a termination request, so the action can close the server cleanly. */
function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
