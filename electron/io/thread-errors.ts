import { FormatError, type FormatErrorCode, type FormatErrorDetails } from '../../shared/errors.js';

/**
 * An error as it crosses to another thread (a structured clone keeps no class): a FormatError keeps its
 * code and details, a system error its name, code and path, so the receiving thread raises what the
 * sending one would have (the CLI's one line, the studio's message, an extraction's refusals).
 */
export interface ThreadError {
  format: { code: FormatErrorCode; details: FormatErrorDetails } | null;
  message: string;
  name?: string;
  code?: string;
  path?: string;
}

export function toThreadError(err: unknown): ThreadError {
  const e = err as NodeJS.ErrnoException | null;
  return {
    format: err instanceof FormatError ? { code: err.code, details: err.details } : null,
    message: e?.message ?? String(err),
    name: e?.name,
    code: typeof e?.code === 'string' ? e.code : undefined,
    path: e?.path,
  };
}

export function fromThreadError(reply: ThreadError): Error {
  if (reply.format) return new FormatError(reply.format.code, reply.message, reply.format.details);
  const err = new Error(reply.message) as NodeJS.ErrnoException;
  if (reply.name) err.name = reply.name;
  if (reply.code) err.code = reply.code;
  if (reply.path) err.path = reply.path;
  return err;
}
