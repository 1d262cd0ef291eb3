import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomically } from '../../io/byte-sink.js';
import type { WritableWorkspaces } from '../host/reach.js';
import type { Responses } from '../../../shared/contract.js';
import type { CallTable } from '../host/types.js';

/** app.info, install.recent and the native pickers: facts about the host, not about any install. */

export interface AppFacts {
  version: string;
  host: 'electron' | 'web';
  /** The install to open first (the demo when no ROOT was given), or null. */
  initialRoot: string | null;
  demo: boolean;
  /** The `modpak` command of this checkout (for the MCP snippet in the About box), when there is one. */
  cli?: string | null;
}

/** Native pickers; only the Electron shell has them. */
export interface Dialogs {
  pickFolder(title?: string): Promise<string | null>;
  pickFile(title?: string): Promise<string | null>;
}

/**
 * Recently opened installs, newest first, kept in a small JSON file (or in memory when no file is given).
 * A damaged file is treated as empty rather than failing the studio.
 */
export class RecentInstalls {
  private list: string[] | null = null;
  constructor(
    private readonly file: string | null,
    private readonly limit = 10,
  ) {}

  async get(): Promise<string[]> {
    if (this.list) return [...this.list];
    this.list = [];
    if (this.file) {
      try {
        const parsed: unknown = JSON.parse(await readFile(this.file, 'utf8'));
        if (Array.isArray(parsed)) this.list = parsed.filter((p): p is string => typeof p === 'string').slice(0, this.limit);
      } catch {
        // missing or unreadable: start empty
      }
    }
    return [...this.list];
  }

  async add(root: string): Promise<void> {
    const list = (await this.get()).filter((p) => p !== root);
    list.unshift(root);
    this.list = list.slice(0, this.limit);
    if (this.file) {
      const bytes = new TextEncoder().encode(JSON.stringify(this.list, null, 2) + '\n');
      await mkdir(dirname(this.file), { recursive: true });
      await writeFileAtomically(this.file, async (sink) => {
        await sink.write(bytes);
      });
    }
  }
}

export function appHandlers(
  facts: AppFacts,
  recent: RecentInstalls,
  dialogs: Dialogs | null,
  writable?: WritableWorkspaces,
  desktop = false,
): Pick<CallTable, 'app.info' | 'install.recent' | 'dialog.pickFolder' | 'dialog.pickFile'> {
  return {
    'app.info': async (): Promise<Responses['app.info']> => ({
      ...facts,
      cli: facts.cli ?? null,
      capabilities: { pickFolder: dialogs !== null, pickFile: dialogs !== null, desktop },
    }),
    'install.recent': async () => recent.get(),
    // A picked path is what the user chose: it joins the allowlist at once.
    'dialog.pickFolder': async (request, ctx) => {
      const picked = dialogs ? await dialogs.pickFolder(request.title) : null;
      if (picked === null) return null;
      // A folder the user picked may be written as a workspace.
      const granted = await ctx.grant(picked, 'folder');
      writable?.add(granted);
      return granted;
    },
    'dialog.pickFile': async (request, ctx) => {
      const picked = dialogs ? await dialogs.pickFile(request.title) : null;
      return picked === null ? null : ctx.grant(picked, 'file');
    },
  };
}
