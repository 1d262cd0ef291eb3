import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CallName } from '../../../shared/contract.js';
import type { CallTable, Handler } from '../../../electron/services/host/types.js';
import { HostError } from '../../../electron/services/host/errors.js';

/**
 * A call table for host tests whose handlers do real, observable work on disk (read a file, write into a
 * target) and record what they were given, so a test can prove that a refused call ran nothing.
 */
export function recordingTable(calls: { name: CallName; request: unknown }[], overrides: Partial<CallTable> = {}): CallTable {
  const refuse = (name: CallName) =>
    (async (request: unknown) => {
      calls.push({ name, request });
      throw new HostError('failed', `${name} has no test handler`);
    }) as unknown as Handler<CallName>;
  const base: Partial<CallTable> = {
    'archive.read': async (request) => {
      calls.push({ name: 'archive.read', request });
      const bytes = await readFile(request.path);
      return { path: request.entry, size: bytes.length, data: bytes.toString('base64'), truncated: false, archive: request.path };
    },
    'archive.extract': async (request, ctx) => {
      calls.push({ name: 'archive.extract', request });
      const bytes = await readFile(request.path);
      await mkdir(request.target, { recursive: true });
      for (let i = 0; i < 3; i++) {
        ctx.signal.throwIfAborted();
        await writeFile(join(request.target, `copy${i}.bin`), bytes);
        ctx.progress(i + 1, 3, `copy${i}.bin`);
      }
      return { files: 3, bytes: bytes.length * 3, refused: [] };
    },
    'archive.open': async (request) => {
      calls.push({ name: 'archive.open', request });
      const bytes = await readFile(request.path);
      return { path: request.path, info: { format: 'pak' as const, files: 1, dirs: 0, bytes: bytes.length, entrySize: 64 }, entries: [] };
    },
  };
  const table = {} as Record<CallName, unknown>;
  for (const name of Object.keys(base).concat(Object.keys(overrides)) as CallName[])
    table[name] = (overrides as Record<string, unknown>)[name] ?? (base as Record<string, unknown>)[name];
  return new Proxy(table, { get: (t, name: string) => t[name as CallName] ?? refuse(name as CallName) }) as CallTable;
}
