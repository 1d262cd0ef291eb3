import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { registerMountCommands } from './mount.js';
import { registerModsCommands } from './mods.js';
import { registerStudioCommands } from './studio.js';
import { registerModelCommands } from './models.js';
import { registerTaAssetCommands } from './ta-assets.js';
import { registerQuakeAssetCommands } from './quake-assets.js';
import { registerMcpCommand } from './mcp.js';
import { registerMountSearchCommands } from './mount-search.js';
import { registerCobCommands } from './cob.js';
import { registerTntCommands } from './tnt.js';
import { InstallService } from '../../services/install-service.js';

/**
 * Command groups beyond the single-archive ones. Each concern registers its own subcommands
 * (mount, diff, watch, serve, studio); add a line here when a group arrives.
 * Returns what releases their resources (mounted installs keep their archives open) once the command ends,
 * which matters when the CLI runs in-process (tests, the studio's host) rather than as its own process.
 */
export function registerCommandModules(program: Command, ctx: CliContext): () => Promise<void> {
  const installs = new InstallService();
  registerMountCommands(program, ctx, installs);
  registerMountSearchCommands(program, ctx, installs);
  registerModsCommands(program, ctx);
  registerStudioCommands(program, ctx);
  registerModelCommands(program, ctx);
  registerTaAssetCommands(program, ctx);
  registerQuakeAssetCommands(program, ctx);
  registerMcpCommand(program, ctx);
  registerCobCommands(program, ctx);
  registerTntCommands(program, ctx, installs);
  return () => installs.closeAll();
}
