import { ZodError } from 'zod';
import type { ContractError } from '../../../shared/contract.js';
import { FormatError } from '../../../shared/errors.js';

/** An error a handler or the host throws on purpose, carrying the contract's code. */
export class HostError extends Error {
  constructor(
    readonly code: ContractError['code'],
    message: string,
  ) {
    super(message);
    this.name = 'HostError';
  }
}

const errnoText: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a folder, not a file',
  ENOTDIR: 'not a folder',
  EEXIST: 'already exists',
  ENOSPC: 'no space left on the device',
  EMFILE: 'too many open files',
};

/** A readable one-line message for a zod failure: the field and what is wrong with it. */
function describeZod(err: ZodError): string {
  const first = err.issues.slice(0, 3).map((issue) => `${issue.path.length ? issue.path.join('.') : 'request'}: ${issue.message}`);
  const more = err.issues.length > 3 ? ` (and ${err.issues.length - 3} more)` : '';
  return `bad request: ${first.join('; ')}${more}`;
}

/**
 * Turn anything thrown into the contract's error. Only a message and a code cross the boundary: never a
 * stack trace or an internal object.
 */
export function toContractError(err: unknown): ContractError {
  if (err instanceof HostError) return { code: err.code, message: err.message };
  if (err instanceof ZodError) return { code: 'bad-request', message: describeZod(err) };
  if (err instanceof FormatError) return { code: err.code === 'not-found' ? 'not-found' : 'failed', message: err.message };
  if (err instanceof Error && (err.name === 'AbortError' || (err as { code?: string }).code === 'ABORT_ERR')) {
    return { code: 'cancelled', message: 'cancelled' };
  }
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e === 'object' && typeof e.code === 'string' && e.code in errnoText) {
    const where = typeof e.path === 'string' ? `${e.path}: ` : '';
    return { code: e.code === 'ENOENT' ? 'not-found' : 'failed', message: `${where}${errnoText[e.code]}` };
  }
  if (err instanceof RangeError) return { code: 'failed', message: `${err.message} (the data is too large or malformed)` };
  if (err instanceof Error) return { code: 'failed', message: err.message || err.name };
  return { code: 'failed', message: String(err) };
}
