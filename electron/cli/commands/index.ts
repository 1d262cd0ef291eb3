import type { Command } from 'commander';
import type { CliContext } from '../context.js';

/**
 * Command groups beyond the single-archive ones. Each concern registers its own subcommands
 * (mount, diff, watch, serve, studio); add a line here when a group arrives.
 */
export function registerCommandModules(_program: Command, _ctx: CliContext): void {}
