/**
 * One error type for corrupt or unsupported input, in the spirit of yauzl: a stable code plus the numbers
 * that prove the problem. Bad arguments (a caller bug) are plain `Error`s and throw at once; data errors
 * are `FormatError`s, which the CLI prints as one line and the studio shows as a message.
 */
export type FormatErrorCode =
  | 'unknown-format'
  | 'bad-magic'
  | 'truncated'
  | 'out-of-bounds'
  | 'bad-count'
  | 'bad-name'
  | 'bad-checksum'
  | 'bad-stream'
  | 'size-mismatch'
  | 'unsupported'
  | 'refused'
  | 'not-found';

export interface FormatErrorDetails {
  offset?: number;
  expected?: number | string;
  actual?: number | string;
}

export class FormatError extends Error {
  override readonly name = 'FormatError';
  constructor(
    readonly code: FormatErrorCode,
    message: string,
    readonly details: FormatErrorDetails = {},
  ) {
    super(message);
  }
}

/** Throw helper so hot loops stay short: `if (bad) fail('bad-stream', '...')`. */
export function fail(code: FormatErrorCode, message: string, details?: FormatErrorDetails): never {
  throw new FormatError(code, message, details);
}

/** Check that [offset, offset+length) lies inside [0, limit); otherwise a FormatError naming the numbers. */
export function checkRange(what: string, offset: number, length: number, limit: number): void {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > limit) {
    fail('out-of-bounds', `${what} overflows its bounds: ${offset} + ${length} > ${limit}`, {
      offset,
      expected: limit,
      actual: offset + length,
    });
  }
}
