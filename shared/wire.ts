/**
 * The wire protocol both hosts speak and the renderer's client reads, declared once: every answer is an
 * envelope; over HTTP a call is POST CALL_PATH + name with the token in TOKEN_HEADER, and events are
 * server-sent on EVENTS_PATH (the token in its query, EventSource sends no headers).
 */
import type { ContractError } from './contract.js';

export type Envelope<T = unknown> = { ok: true; result: T } | { ok: false; error: ContractError };

export const CALL_PATH = '/api/call/';
export const EVENTS_PATH = '/api/events';
export const TOKEN_HEADER = 'x-modpak-token';

export function callPath(name: string): string {
  return `${CALL_PATH}${encodeURIComponent(name)}`;
}
