/** Turn whatever a call threw into a sentence a person can read, and recognise cancellation. */

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object' && 'message' in error && typeof (error as { message: unknown }).message === 'string') {
    return (error as { message: string }).message;
  }
  try {
    return `Unexpected error: ${JSON.stringify(error)}`;
  } catch {
    return 'Unexpected error';
  }
}

export function isCancelled(error: unknown): boolean {
  if (error && typeof error === 'object' && 'code' in error && (error as { code: unknown }).code === 'cancelled') return true;
  return /\bcancel+ed\b/i.test(errorMessage(error));
}

/** The host's answer to an extraction into a folder that already holds files (the studio asks before overwriting). */
export function isTargetConflict(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'conflict';
}
