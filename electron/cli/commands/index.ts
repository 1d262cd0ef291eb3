import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { registerMountCommands } from './mount.js';
import { registerModsCommands } from './mods.js';
import { registerStudioCommands } from './studio.js';

/**
 * Command groups beyond the single-archive ones. Each concern registers its own subcommands
 * (mount, diff, watch, serve, studio); add a line here when a group arrives.
 */
export function registerCommandModules(program: Command, ctx: CliContext): void {
  registerMountCommands(program, ctx);
  registerModsCommands(program, ctx);
  registerStudioCommands(program, ctx);
}
