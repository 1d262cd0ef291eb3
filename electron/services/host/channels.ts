import type { CallName, EventName } from '../../../shared/contract.js';

/**
 * The contract's names as plain data, free of zod and of electron, so the sandboxed preload can bundle
 * them into its allow-list. The `Record<CallName, true>` types make the lists exhaustive and exact: a call
 * added to shared/contract.ts without a line here (or a line here for a call that does not exist) fails
 * the typecheck.
 */
const calls: Record<CallName, true> = {
  'app.info': true,
  'install.open': true,
  'install.recent': true,
  'install.stats': true,
  'install.tree': true,
  'install.resolve': true,
  'install.defs': true,
  'install.conflicts': true,
  'install.read': true,
  'install.extract': true,
  'install.grep': true,
  'install.check': true,
  'install.units': true,
  'archive.open': true,
  'archive.read': true,
  'archive.extract': true,
  'archive.verify': true,
  'archive.openBytes': true,
  'asset.view': true,
  'dialog.pickFolder': true,
  'dialog.pickFile': true,
  'folders.list': true,
  'extract.defaultTarget': true,
  'shell.reveal': true,
  'shell.dragOut': true,
  'jobs.cancel': true,
  'workspace.open': true,
  'workspace.fromArchive': true,
  'workspace.files': true,
  'workspace.override': true,
  'workspace.readText': true,
  'workspace.writeText': true,
  'workspace.checkTdf': true,
  'workspace.addFiles': true,
  'workspace.addPaths': true,
  'mods.diff': true,
  'mods.impact': true,
  'mods.export': true,
  'watch.start': true,
  'watch.stop': true,
  'watch.status': true,
};
const events: Record<EventName, true> = { progress: true, watch: true, 'install.changed': true, 'workspace.changed': true };

export const CALL_NAMES: readonly CallName[] = Object.keys(calls) as CallName[];

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(calls, name);
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
}

/** One IPC channel per call (no catch-all channel), and one for pushed events. */
export const callChannel = (name: CallName) => `modpak:call:${name}`;
export const EVENT_CHANNEL = 'modpak:event';
