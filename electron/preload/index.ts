import { contextBridge, ipcRenderer, webUtils } from 'electron';
import type { CallName, EventName } from '../../shared/contract.js';
import { EVENT_CHANNEL, callChannel, isCallName, isEventName } from '../services/host/channels.js';

/**
 * The sandboxed preload: exposes `window.modpak` with exactly the contract and nothing else. `call`
 * accepts only the contract's call names (each on its own channel); `on` only its event names;
 * `pathForFile` names a file the user dropped (webUtils: the page sees File objects, never paths). No
 * ipcRenderer, no Node, no arbitrary channel reaches the page. Bundled into one CommonJS file.
 */
type Listener = (payload: unknown) => void;
const listeners = new Map<EventName, Set<Listener>>();

ipcRenderer.on(EVENT_CHANNEL, (_event, message: { event?: unknown; payload?: unknown }) => {
  if (!message || !isEventName(message.event)) return;
  for (const listener of [...(listeners.get(message.event) ?? [])]) listener(message.payload);
});

contextBridge.exposeInMainWorld('modpak', {
  call(name: string, request: unknown) {
    if (!isCallName(name))
      return Promise.resolve({ ok: false, error: { code: 'bad-request', message: `no such call: ${String(name).slice(0, 80)}` } });
    return ipcRenderer.invoke(callChannel(name satisfies CallName), request);
  },
  on(event: string, listener: Listener) {
    if (!isEventName(event) || typeof listener !== 'function') return () => {};
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => {
      set!.delete(listener);
    };
  },
  pathForFile(file: unknown): string {
    try {
      return webUtils.getPathForFile(file as File);
    } catch {
      return '';
    }
  },
});
