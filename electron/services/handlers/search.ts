import type { CallTable } from '../host/types.js';
import { HostError } from '../host/errors.js';
import type { InstallService } from '../install-service.js';
import { grepInstall } from '../install-grep.js';
import { checkInstall } from '../install-checks.js';
import { unitTable } from '../unit-table.js';
import { openedInstall } from './install.js';

/** Search inside an install's files, its sanity checks and its unit table (the Search and Units screens, MCP). */
export function searchHandlers(installs: InstallService): Pick<CallTable, 'install.grep' | 'install.check' | 'install.units'> {
  const opened = openedInstall(installs);
  return {
    'install.grep': async ({ root, pattern, ignoreCase, globs, limit }, ctx) => {
      let regex: RegExp;
      try {
        regex = new RegExp(pattern, ignoreCase ? 'i' : '');
      } catch (err) {
        throw new HostError('bad-request', `not a regular expression: ${(err as Error).message}`);
      }
      return grepInstall(await opened(root), regex, { globs, limit, signal: ctx.signal, onProgress: ctx.progress });
    },
    'install.check': async ({ root }) => checkInstall(await opened(root)),
    'install.units': async ({ root }) => unitTable(await opened(root)),
  };
}
