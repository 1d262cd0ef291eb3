import type { CallName, EventName, Events } from '../../shared/contract.js';
import { CALL_NAMES, EVENT_CHANNEL, callChannel } from '../services/host/channels.js';
import type { Envelope, StudioHost } from '../services/host/host.js';
import { isTrustedSender } from './policy.js';

/**
 * The IPC adapter: one `ipcMain.handle` per contract call (no catch-all channel), each checking that the
 * message comes from the app's own top frame before handing the payload to the host, which validates it.
 * Written against the small part of Electron it uses, so tests drive it with a fake ipcMain.
 */
export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: { senderFrame: { url: string; parent: unknown } | null }, payload: unknown) => Promise<unknown>,
  ): void;
  removeHandler(channel: string): void;
}

export function registerCallHandlers(ipc: IpcMainLike, host: StudioHost): () => void {
  for (const name of CALL_NAMES) {
    ipc.handle(callChannel(name), async (event, payload): Promise<Envelope> => {
      if (!isTrustedSender(event.senderFrame)) {
        return { ok: false, error: { code: 'not-allowed', message: 'calls are accepted only from the studio window' } };
      }
      return host.call(name satisfies CallName, payload);
    });
  }
  return () => {
    for (const name of CALL_NAMES) ipc.removeHandler(callChannel(name));
  };
}

/** Forward the host's events to a window (only while it is alive, and only to the app's page). */
export function forwardEvents(
  host: StudioHost,
  target: { isDestroyed(): boolean; getURL(): string; send(channel: string, message: unknown): void },
  isApp: (url: string) => boolean,
): () => void {
  return host.on(<E extends EventName>(event: E, payload: Events[E]) => {
    if (!target.isDestroyed() && isApp(target.getURL())) target.send(EVENT_CHANNEL, { event, payload });
  });
}
