import type { CallName } from '../../../shared/contract.js';
import { HostError } from '../host/errors.js';
import type { CallTable } from '../host/types.js';

/**
 * Calls whose service has not landed in this build: they answer with a readable 'failed' error (the
 * renderer shows it) instead of being absent, so the call table stays complete and typed.
 */
export function pendingHandlers<K extends CallName>(names: readonly K[], service: string): Pick<CallTable, K> {
  const table = {} as Record<K, CallTable[K]>;
  for (const name of names) {
    table[name] = (async () => {
      throw new HostError('failed', `${name} is not available in this build yet (${service} is missing)`);
    }) as unknown as CallTable[K];
  }
  return table as Pick<CallTable, K>;
}
