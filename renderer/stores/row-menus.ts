import { nextTick } from 'vue';
import type { MountedArchive, Provider } from '../../shared/vfs-types';
import type { TreeRow } from '../lib/tree-model';
import { isTextFile as isEditableText } from '../../shared/file-kinds';
import { api } from '../api';
import { useAppStore } from './app';
import { useArchiveStore } from './archive';
import { useEditorStore } from './editor';
import { useErrorsStore } from './errors';
import { useFilesStore } from './files';
import { useInstallStore } from './install';
import { useLayeringStore } from './layering';
import { useMenuStore, type MenuItem } from './menu';
import { useNavigationStore } from './navigation';
import { useWorkspaceStore } from './workspace';

/**
 * The commands of the four context menus (Files tree rows, Archive entries, mount-order rows, Layering
 * rows), built from the same few actions. Reveal in folder needs the desktop app and is left out in the
 * browser; a command that does not apply to the row is shown disabled with the reason.
 */

/** `rel` (forward slashes) under the folder `root`, with the folder's own separator. */
export function joinPath(root: string, rel: string): string {
  const sep = root.includes('\\') && !root.includes('/') ? '\\' : '/';
  return root.replace(/[\\/]+$/, '') + sep + rel.split('/').filter(Boolean).join(sep);
}

async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    useMenuStore().say(`Copied ${text}`);
  } catch {
    // No clipboard permission (an insecure origin, a test browser): say the text so it can be selected.
    useMenuStore().say(`Path: ${text}`);
  }
}

/** Focus the extraction field of the screen on show (its default target is filled in). */
async function focusExtract(label: string): Promise<void> {
  await nextTick();
  const input = document.querySelector<HTMLInputElement>(`input[aria-label="${label}"]`);
  input?.focus();
  input?.select();
}

/** Copy the install's winner into the open workspace and edit it; without a workspace, the Mods screen first. */
export async function overrideInMod(path: string): Promise<void> {
  const workspace = useWorkspaceStore();
  const navigation = useNavigationStore();
  if (!workspace.dir) {
    navigation.go('mods');
    return;
  }
  const placed = await workspace.override(path);
  if (placed === null) return;
  if (isEditableText(placed)) await useEditorStore().openFile(placed);
  navigation.go('mods');
}

/** Open an archive on the Archive screen, with `entry` selected when given. */
export async function openArchiveAt(file: string, entry?: string): Promise<void> {
  const archive = useArchiveStore();
  useNavigationStore().go('archive');
  if (archive.path !== file && !(await archive.open(file))) return;
  if (entry === undefined) return;
  const at = archive.listing?.entries.findIndex((e) => e.path.toLowerCase() === entry.toLowerCase()) ?? -1;
  if (at >= 0) archive.select(at);
}

/** The path on disk of a provider: its archive in the install (mounted from the install folder), or the loose file. */
function providerFile(root: string, provider: Provider): string | null {
  if (provider.archive === null) return joinPath(root, provider.entry);
  const mounted = useInstallStore().opened?.mounted.find((m) => m.archive === provider.archive);
  return mounted && mounted.root !== 'install' ? null : joinPath(root, provider.archive);
}

function reveal(path: string | null, what = 'Reveal in folder'): MenuItem[] {
  if (!useAppStore().info?.capabilities.desktop) return [];
  return [
    {
      id: 'reveal',
      label: what,
      disabled: path === null,
      title: path === null ? 'not a file of the install folder' : path,
      run: () => api.call('shell.reveal', { path: path! }).catch((e: unknown) => useErrorsStore().report(e, 'Reveal in folder')),
    },
  ];
}

async function winnerOf(root: string, path: string): Promise<Provider | null> {
  const layering = useLayeringStore();
  if (layering.path === path && layering.result) return layering.result.winner;
  return (await api.call('install.resolve', { root, path })).winner;
}

export function filesRowMenu(row: TreeRow): MenuItem[] {
  const files = useFilesStore();
  const root = files.treeRoot ?? '';
  const file = row.kind === 'file';
  const layers = file ? (files.tree?.layers[row.index] ?? 0) : 0;
  const onWinner = async (act: (winner: Provider) => unknown) => {
    try {
      const winner = await winnerOf(root, row.path);
      if (winner) await act(winner);
    } catch (error) {
      useErrorsStore().report(error, row.path);
    }
  };
  return [
    {
      id: 'extract',
      label: 'Extract…',
      run: () => {
        files.select(row);
        return focusExtract('Extract to folder');
      },
    },
    { id: 'copy', label: 'Copy path', run: () => copyText(row.path) },
    {
      id: 'override',
      label: 'Override in mod',
      disabled: !file,
      title: file ? undefined : 'a folder: override its files one by one',
      run: () => overrideInMod(row.path),
    },
    {
      id: 'open-archive',
      label: 'Open containing archive',
      disabled: !file,
      title: file ? undefined : 'a folder',
      run: () =>
        onWinner((w) =>
          w.archive === null
            ? useMenuStore().say(`${row.path} is a loose file: no archive holds it`)
            : openArchiveAt(providerFile(root, w) ?? w.archive, w.entry),
        ),
    },
    {
      id: 'compare',
      label: 'Compare with winner',
      disabled: layers < 2,
      title: layers < 2 ? 'only one provider: nothing to compare' : undefined,
      run: async () => {
        const layering = useLayeringStore();
        files.select(row);
        await layering.resolve(root, row.path);
        layering.comparing = layering.result?.shadowed[0] ?? null;
      },
    },
    ...(file && useAppStore().info?.capabilities.desktop
      ? [
          {
            id: 'reveal',
            label: 'Reveal in folder',
            run: () => onWinner((w) => api.call('shell.reveal', { path: providerFile(root, w) ?? joinPath(root, w.archive ?? w.entry) })),
          },
        ]
      : []),
  ];
}

export function providerMenu(path: string, provider: Provider, winner: boolean): MenuItem[] {
  const root = useFilesStore().treeRoot ?? useInstallStore().root ?? '';
  const file = providerFile(root, provider);
  return [
    {
      id: 'extract',
      label: 'Extract…',
      disabled: !winner,
      title: winner ? undefined : 'extraction writes the winner; open this archive to extract its copy',
      run: () => focusExtract('Extract to folder'),
    },
    { id: 'copy', label: 'Copy path', run: () => copyText(path) },
    { id: 'override', label: 'Override in mod', run: () => overrideInMod(path) },
    {
      id: 'open-archive',
      label: 'Open containing archive',
      disabled: provider.archive === null || file === null,
      title: provider.archive === null ? 'a loose file' : undefined,
      run: () => openArchiveAt(file!, provider.entry),
    },
    {
      id: 'compare',
      label: 'Compare with winner',
      disabled: winner,
      title: winner ? 'this is the winner' : undefined,
      run: () => (useLayeringStore().comparing = provider),
    },
    ...reveal(file),
  ];
}

export function archiveEntryMenu(index: number): MenuItem[] {
  const archive = useArchiveStore();
  const install = useInstallStore();
  const entry = archive.listing?.entries[index];
  const file = archive.path;
  if (!entry || !file) return [];
  // Compare needs this archive to be one the open install mounts (then it is one of the entry's providers).
  const mounted = install.root
    ? install.opened?.mounted.find((m) => m.root === 'install' && joinPath(install.root!, m.archive) === file)
    : undefined;
  return [
    {
      id: 'extract',
      label: 'Extract…',
      disabled: entry.dir === true,
      run: () => {
        archive.select(index);
        archive.only = entry.path;
        return focusExtract('Extract archive to folder');
      },
    },
    { id: 'copy', label: 'Copy path', run: () => copyText(entry.path) },
    {
      id: 'override',
      label: 'Override in mod',
      disabled: !install.root || entry.dir === true,
      title: install.root ? "the install's winner for this path" : 'open an install first',
      run: () => overrideInMod(entry.path),
    },
    {
      id: 'compare',
      label: 'Compare with winner',
      disabled: !mounted || entry.dir === true,
      title: mounted ? undefined : 'this archive is not mounted by the open install',
      run: async () => {
        const files = useFilesStore();
        await files.showInFiles(entry.path);
        const layering = useLayeringStore();
        if (files.treeRoot && layering.path) await layering.resolve(files.treeRoot, layering.path);
        const mine = layering.result?.shadowed.find((p) => p.archive === mounted!.archive);
        layering.comparing = mine ?? null;
        if (!mine) useMenuStore().say(`${mounted!.archive} is the winner for ${entry.path}`);
      },
    },
    ...reveal(file),
  ];
}

export function mountRowMenu(mounted: MountedArchive): MenuItem[] {
  const root = useInstallStore().root ?? '';
  const file = mounted.root === 'install' ? joinPath(root, mounted.archive) : null;
  return [
    {
      id: 'extract',
      label: 'Extract…',
      disabled: file === null,
      run: async () => {
        await openArchiveAt(file!);
        await focusExtract('Extract archive to folder');
      },
    },
    { id: 'copy', label: 'Copy path', run: () => copyText(file ?? mounted.archive) },
    {
      id: 'open-archive',
      label: 'Open archive',
      disabled: file === null,
      title: file === null ? 'on the disc' : undefined,
      run: () => openArchiveAt(file!),
    },
    ...reveal(file),
  ];
}
