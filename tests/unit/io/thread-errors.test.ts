import { describe, expect, it } from 'vitest';
import { openSync } from 'node:fs';
import { FormatError } from '../../../shared/errors.js';
import { fromThreadError, toThreadError } from '../../../electron/io/thread-errors.js';

/** What another thread receives: a structured clone, which keeps no class. */
const across = (err: unknown) => fromThreadError(structuredClone(toThreadError(err)));

describe('errors crossing a thread', () => {
  it('a FormatError arrives as one, with its code, message and details', () => {
    const got = across(new FormatError('size-mismatch', 'a.gaf changed while packing: 3 bytes, expected 5', { expected: 5, actual: 3 }));
    expect(got).toBeInstanceOf(FormatError);
    expect(got).toMatchObject({
      code: 'size-mismatch',
      message: 'a.gaf changed while packing: 3 bytes, expected 5',
      details: { expected: 5, actual: 3 },
    });
  });

  it('a system error keeps its code, path and message; anything else its text', () => {
    let thrown: unknown;
    try {
      openSync('/nonexistent/modpak-thread-error', 'r');
    } catch (err) {
      thrown = err;
    }
    const got = across(thrown) as NodeJS.ErrnoException;
    expect(got).not.toBeInstanceOf(FormatError);
    expect([got.code, got.path, got.message]).toEqual(['ENOENT', '/nonexistent/modpak-thread-error', (thrown as Error).message]);
    expect(across('a string').message).toBe('a string');
  });
});
