import type { z } from 'zod';
import type { CallName, EventName, Events, ResponseOf, requests } from '../../../shared/contract.js';
import type { GrantKind } from './allowlist.js';

/** What a handler gets besides its validated request. */
export interface CallContext {
  /** Aborted by `jobs.cancel` for this call's jobId, or when the host shuts down. */
  signal: AbortSignal;
  /** This call's job id (the request's jobId, or an internal one). */
  jobId: string;
  /** Report progress of this job (throttled; sent as a `progress` event with the job id). */
  progress(done: number, total: number, label?: string): void;
  /** Push an event to the renderer(s). */
  emit<E extends EventName>(event: E, payload: Events[E]): void;
  /** Allow a path the user picked in a native dialog. */
  grant(path: string, kind: GrantKind): Promise<string>;
  /** Whether a path is already allowed (e.g. to decide if an archive inside an opened folder may be read). */
  allows(path: string): boolean;
}

/** The request after validation (zod's output type: defaults applied, paths normalised by the host). */
export type ValidRequest<K extends CallName> = z.output<(typeof requests)[K]>;

export type Handler<K extends CallName> = (request: ValidRequest<K>, ctx: CallContext) => Promise<ResponseOf<K>>;

/** The call table: exactly one handler per contract call. */
export type CallTable = { [K in CallName]: Handler<K> };
