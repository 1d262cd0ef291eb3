import type { CallName, ContractError, EventName, Events, HostConnection, RequestOf, ResponseOf, StudioApi } from '../../shared/contract';
import { callPath, EVENTS_PATH, TOKEN_HEADER, type Envelope } from '../../shared/wire';

/**
 * The two ways the renderer reaches its host. Both speak the same contract, so nothing above this file
 * knows which one it runs on:
 * - Electron: the preload puts `window.modpak` (a {@link PreloadBridge}) in the page; each call goes over
 *   its own IPC channel and the main process validates it.
 * - Browser (`modpak serve`): POST /api/call/<name> with the token in a header; events arrive over
 *   server-sent events on /api/events.
 */

/** What the Electron preload exposes through contextBridge (exactly the contract, nothing else). */
export interface PreloadBridge {
  call(name: string, request: unknown): Promise<Envelope>;
  on(event: string, listener: (payload: unknown) => void): () => void;
  /** The path on disk of a File the user dropped ('' when it has none). */
  pathForFile?(file: unknown): string;
}

/** A call the host refused or that failed: the contract's error, as a throwable. */
export class ApiError extends Error implements ContractError {
  readonly code: ContractError['code'];
  constructor(error: ContractError) {
    super(error.message);
    this.name = 'ApiError';
    this.code = error.code;
  }
}

function unwrap<K extends CallName>(envelope: Envelope): ResponseOf<K> {
  if (envelope && envelope.ok === true) return envelope.result as ResponseOf<K>;
  const error =
    envelope && envelope.ok === false ? envelope.error : { code: 'failed' as const, message: 'the host sent an unreadable answer' };
  throw new ApiError(error);
}

/** The Electron transport over the preload bridge. */
export function createBridgeApi(bridge: PreloadBridge): StudioApi {
  return {
    async call<K extends CallName>(name: K, request: RequestOf<K>) {
      return unwrap<K>(await bridge.call(name, request));
    },
    on<E extends EventName>(event: E, listener: (payload: Events[E]) => void) {
      return bridge.on(event, listener as (payload: unknown) => void);
    },
  };
}

/**
 * The small parts of the browser this file uses, typed structurally so it also compiles (and is tested)
 * under the Node-only typecheck of tests/.
 */
export interface EventSourceLike {
  addEventListener(type: string, listener: (message: { data: string }) => void): void;
  close(): void;
  /** 0 connecting, 1 open, 2 closed for good (the browser's EventSource). */
  readonly readyState?: number;
}

/** What the page says when the event stream to `modpak serve` closes. */
export const HOST_STOPPED =
  "The studio's host stopped (its event stream closed), so nothing on this page can be loaded or saved. " +
  'Start it again (`npm run web`, or `modpak serve ROOT`) and open the URL it prints: it carries a new token. ' +
  'If it comes back on the same port with the same token, this page reconnects by itself.';
export type EventSourceConstructor = new (url: string) => EventSourceLike;
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface HttpApiOptions {
  /** The page's origin (default: the current one). */
  base?: string;
  token: string;
  fetch?: typeof fetch;
  /** EventSource constructor (default: the browser's); tests may pass one. */
  EventSource?: EventSourceConstructor;
}

/**
 * The browser transport. One EventSource is opened on the first `on()` and shared by every listener;
 * the browser reconnects it by itself if the connection drops.
 */
export function createHttpApi(options: HttpApiOptions): StudioApi {
  const base = (options.base ?? '').replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const connectionListeners = new Set<(connection: HostConnection) => void>();
  let connection: HostConnection | null = null;
  const setConnection = (next: HostConnection) => {
    if (connection?.state === next.state) return;
    connection = next;
    for (const l of [...connectionListeners]) l(next);
  };
  let source: EventSourceLike | null = null;

  const ensureSource = () => {
    if (source) return;
    const Source = options.EventSource ?? (globalThis as { EventSource?: EventSourceConstructor }).EventSource;
    if (!Source) return;
    // EventSource cannot set headers, so the token travels in the query (same origin, no Referer leaks: the
    // host answers with Referrer-Policy: no-referrer).
    source = new Source(`${base}${EVENTS_PATH}?token=${encodeURIComponent(options.token)}`);
    // The stream stays open for the page's life: its closing is the first sign that the host is gone.
    source.addEventListener('open', () => setConnection({ state: 'connected' }));
    source.addEventListener('error', () => setConnection({ state: 'lost', message: HOST_STOPPED }));
    for (const event of listeners.keys()) attach(event);
  };
  const attached = new Set<string>();
  const attach = (event: string) => {
    if (!source || attached.has(event)) return;
    attached.add(event);
    source.addEventListener(event, (message) => {
      let payload: unknown;
      try {
        payload = JSON.parse(message.data);
      } catch {
        return;
      }
      for (const listener of [...(listeners.get(event) ?? [])]) listener(payload);
    });
  };

  return {
    async call<K extends CallName>(name: K, request: RequestOf<K>) {
      let response: Response;
      try {
        response = await doFetch(`${base}${callPath(name)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [TOKEN_HEADER]: options.token },
          body: JSON.stringify(request ?? {}),
        });
      } catch (err) {
        throw new ApiError({
          code: 'failed',
          message: `the studio host cannot be reached (${err instanceof Error ? err.message : String(err)}): it has stopped; start it again and open the URL it prints`,
        });
      }
      let envelope: Envelope;
      try {
        envelope = (await response.json()) as Envelope;
      } catch {
        throw new ApiError({
          code: 'failed',
          message: `the studio host answered ${response.status} ${response.statusText} without a result`,
        });
      }
      return unwrap<K>(envelope);
    },
    on<E extends EventName>(event: E, listener: (payload: Events[E]) => void) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const l = listener as (payload: unknown) => void;
      set.add(l);
      ensureSource();
      attach(event);
      return () => {
        set!.delete(l);
      };
    },
    onConnection(listener) {
      connectionListeners.add(listener);
      ensureSource();
      if (connection) listener(connection);
      return () => connectionListeners.delete(listener);
    },
  };
}

/** The token of `modpak serve`: from the page's URL (?token=…), kept for reloads in sessionStorage. */
export function tokenFromLocation(location: { search: string }, storage?: StorageLike): string | null {
  const fromUrl = new URLSearchParams(location.search).get('token');
  if (fromUrl) {
    try {
      storage?.setItem('modpak.token', fromUrl);
    } catch {
      // storage can be disabled; the URL still has it
    }
    return fromUrl;
  }
  try {
    return storage?.getItem('modpak.token') ?? null;
  } catch {
    return null;
  }
}
