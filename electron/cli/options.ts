import { InvalidArgumentError } from 'commander';

/** Argument parsers shared by commands. */
export function parseInteger(value: string): number {
  const n = /^0x[0-9a-f]+$/i.test(value) ? parseInt(value, 16) : /^\d+$/.test(value) ? parseInt(value, 10) : NaN;
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('not a whole number (decimal or 0x hex)');
  return n;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function oneOf<T extends string>(allowed: readonly T[]) {
  return (value: string): T => {
    if (!(allowed as readonly string[]).includes(value)) throw new InvalidArgumentError(`must be one of ${allowed.join(', ')}`);
    return value as T;
  };
}
