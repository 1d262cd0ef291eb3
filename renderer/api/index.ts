import type { CallName, EventName, Events, RequestOf, ResponseOf, StudioApi } from '../../shared/contract';
import {
  ApiError,
  createBridgeApi,
  createHttpApi,
  HOST_STOPPED,
  tokenFromLocation,
  type PreloadBridge,
  type StorageLike,
} from './transport';

/**
 * The renderer's one way to its host. Usage (components and Pinia stores):
 *
 *   import { api, useApi, ApiError } from '@/api'   // or a relative path to renderer/api
 *   const report = await api.call('install.open', { root })       // typed by shared/contract.ts
 *   const off = api.on('progress', (p) => …)                      // returns the unsubscribe function
 *
 * Failures throw ApiError ({ code, message }: 'bad-request' | 'not-allowed' | 'failed' | 'cancelled' |
 * 'not-found'). Long calls take a `jobId` (use newJobId()); progress events carry it and
 * `api.call('jobs.cancel', { jobId })` stops the job (the call then rejects with code 'cancelled').
 *
 * The transport is chosen at first use: the Electron preload's `window.modpak` when present, otherwise
 * HTTP to `modpak serve` with the token from the page URL. Tests install their own with setApi().
 */

let current: StudioApi | null = null;

/** What detectApi reads from the page: the preload's bridge, or the URL and session storage. */
export interface PageLike {
  modpak?: PreloadBridge;
  location?: { search: string };
  sessionStorage?: StorageLike;
}

/** Pick the transport for this page. */
export function detectApi(win: PageLike | undefined = (globalThis as { window?: PageLike }).window): StudioApi {
  if (win?.modpak) return createBridgeApi(win.modpak);
  if (win?.location) {
    const token = tokenFromLocation(win.location, win.sessionStorage);
    if (token) return createHttpApi({ token });
  }
  return unavailableApi(
    'this page was opened without the studio host: start it with `npm start` or `npm run web` and use the URL it prints',
  );
}

function unavailableApi(message: string): StudioApi {
  return {
    call: () => Promise.reject(new ApiError({ code: 'failed', message })),
    on: () => () => {},
  };
}

/** The active api (detected on first use). */
export function useApi(): StudioApi {
  if (!current) current = detectApi();
  return current;
}

/** Replace the active api (component and store tests pass a fake or an in-process host). */
export function setApi(next: StudioApi | null): void {
  current = next;
}

/** A stable object that always forwards to the active api, for `import { api }`. */
export const api: StudioApi = {
  call<K extends CallName>(name: K, request: RequestOf<K>): Promise<ResponseOf<K>> {
    return useApi().call(name, request);
  },
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
    return useApi().on(event, listener);
  },
  onConnection(listener) {
    return useApi().onConnection?.(listener) ?? (() => {});
  },
};

let jobCounter = 0;
/** A job id for a long call (unique in this page). */
export function newJobId(prefix = 'job'): string {
  jobCounter += 1;
  return `${prefix}-${Date.now().toString(36)}-${jobCounter}`;
}

export { ApiError, createBridgeApi, createHttpApi, tokenFromLocation, HOST_STOPPED };
export type { PreloadBridge };
export type { StudioApi, CallName, RequestOf, ResponseOf, Events, EventName, ContractError, HostConnection } from '../../shared/contract';
