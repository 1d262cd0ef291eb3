import { z } from 'zod';
import { requests, type CallName, type EventName, type Events, type ResponseOf } from '../../../shared/contract.js';
import { PathAllowlist, type GrantKind } from './allowlist.js';
import { pathFields } from './access.js';
import { isCallName } from './channels.js';
import { HostError, toContractError } from './errors.js';
import { JobRegistry, throttledProgress } from './jobs.js';
import type { CallContext, CallTable } from './types.js';
import type { Envelope } from '../../../shared/wire.js';

/**
 * The contract's one implementation, shared by both shells: the Electron main process (one IPC handler per
 * call) and `modpak serve` (POST /api/call/<name>). Every call goes through `call()`, which
 *   1. refuses names that are not in the contract,
 *   2. validates the payload with the contract's zod schema (unknown keys refused too),
 *   3. checks every path field against the allowlist (see access.ts),
 *   4. runs the handler as a job with an AbortSignal and a throttled progress reporter,
 *   5. answers with an envelope: { ok: true, result } or { ok: false, error: ContractError }.
 * Nothing is acted on before steps 1–3 pass, and no exception escapes: shells just forward the envelope.
 */

export type { Envelope };
export type EventListener = <E extends EventName>(event: E, payload: Events[E]) => void;

export interface StudioHostOptions {
  allowlist?: PathAllowlist;
  /** Shared with the jobs.cancel handler. */
  jobs?: JobRegistry;
  /** Milliseconds between two progress events of one job (default 50). */
  progressIntervalMs?: number;
}

// Strict variants of the contract's schemas, built once: a payload with keys the contract does not name
// is a renderer bug or a probe, and is refused rather than silently trimmed.
const strictSchemas = new Map<CallName, z.ZodType>();
function schemaFor(name: CallName): z.ZodType {
  let schema = strictSchemas.get(name);
  if (!schema) {
    const base = requests[name] as z.ZodType;
    schema = base instanceof z.ZodObject ? base.strict() : base;
    strictSchemas.set(name, schema);
  }
  return schema;
}

export class StudioHost {
  readonly allowlist: PathAllowlist;
  readonly jobs: JobRegistry;
  private readonly listeners = new Set<EventListener>();
  private readonly progressIntervalMs: number;
  private closed = false;
  private readonly closers: (() => Promise<void> | void)[] = [];

  constructor(
    private readonly table: CallTable,
    options: StudioHostOptions = {},
  ) {
    this.allowlist = options.allowlist ?? new PathAllowlist();
    this.jobs = options.jobs ?? new JobRegistry();
    this.progressIntervalMs = options.progressIntervalMs ?? 50;
  }

  /** Run one call from the renderer. Never throws. */
  async call(name: unknown, payload: unknown): Promise<Envelope> {
    if (!isCallName(name))
      return { ok: false, error: { code: 'bad-request', message: `no such call: ${JSON.stringify(String(name)).slice(0, 80)}` } };
    if (this.closed) return { ok: false, error: { code: 'failed', message: 'the studio host is shutting down' } };
    let job: ReturnType<JobRegistry['start']> | null = null;
    try {
      const request = schemaFor(name).parse(payload ?? {}) as Record<string, unknown>;
      const opened = await this.checkPaths(name, request);
      // jobs.cancel names another call's job; every other jobId names this call's own job.
      job = this.jobs.start(name !== 'jobs.cancel' && typeof request.jobId === 'string' ? request.jobId : undefined);
      const ctx = this.context(job.id, job.signal);
      const handler = this.table[name] as (request: unknown, ctx: CallContext) => Promise<ResponseOf<CallName>>;
      const result = await handler(request, ctx);
      if (job.signal.aborted) throw new HostError('cancelled', 'cancelled');
      for (const [path, kind] of opened) await this.allowlist.grant(path, kind);
      return { ok: true, result };
    } catch (err) {
      if (job?.signal.aborted) return { ok: false, error: { code: 'cancelled', message: 'cancelled' } };
      return { ok: false, error: toContractError(err) };
    } finally {
      job?.finish();
    }
  }

  /** Allow a folder (or file) from the host's side: the install given on the command line, the demo. */
  grant(path: string, kind: GrantKind = 'folder'): Promise<string> {
    return this.allowlist.grant(path, kind);
  }

  /** Subscribe to every event the host emits (the shells forward them to their renderer). */
  on(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<E extends EventName>(event: E, payload: Events[E]): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event, payload);
      } catch {
        // a shell that fails to deliver one event must not break the call that emitted it
      }
    }
  }

  /** Run `fn` when the host closes (services stop their watchers, close their mounts). */
  onClose(fn: () => Promise<void> | void): void {
    this.closers.push(fn);
  }

  /** Cancel every running job, refuse new calls, and close the services. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.jobs.cancelAll();
    for (const fn of this.closers.splice(0)) {
      try {
        await fn();
      } catch {
        // closing is best effort: one service failing to stop must not keep the others open
      }
    }
    this.listeners.clear();
  }

  /**
   * Normalise every path field in place; refuse fields that must already be allowed and are not; grant
   * destinations now; return the opened paths to grant once the call succeeds.
   */
  private async checkPaths(name: CallName, request: Record<string, unknown>): Promise<[string, GrantKind][]> {
    const opened: [string, GrantKind][] = [];
    const fields = Object.entries(pathFields[name]).filter(([field]) => typeof request[field] === 'string');
    // Every check first, then the grants: a refused call grants nothing.
    for (const [field, access] of fields) {
      const value = request[field] as string;
      if (access === 'use')
        request[field] = await this.allowlist.require(
          value,
          field === 'root' ? 'install' : field === 'dir' ? 'workspace' : 'file or folder',
        );
      else request[field] = this.allowlist.normalize(value);
    }
    for (const [field, access] of fields) {
      const abs = request[field] as string;
      if (access === 'target-folder' || access === 'target-file')
        await this.allowlist.grant(abs, access === 'target-folder' ? 'folder' : 'file');
      else if (access === 'open-folder' || access === 'open-file') opened.push([abs, access === 'open-folder' ? 'folder' : 'file']);
    }
    return opened;
  }

  private context(jobId: string, signal: AbortSignal): CallContext {
    return {
      signal,
      jobId,
      progress: throttledProgress(
        (done, total, label) => this.emit('progress', label === undefined ? { jobId, done, total } : { jobId, done, total, label }),
        this.progressIntervalMs,
      ),
      emit: (event, payload) => this.emit(event, payload),
      grant: (path, kind) => this.allowlist.grant(path, kind),
      allows: (path) => this.allowlist.allows(path),
    };
  }
}
