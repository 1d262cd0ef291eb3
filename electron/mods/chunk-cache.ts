import { createHash } from 'node:crypto';
import type { ChunkCache } from '../formats/archive.js';

/**
 * A ChunkCache for repeated builds (watch and repack), keyed by the method, length and SHA-1 of a file's
 * bytes: it keeps what the last build used (its hits and new entries) and forgets the rest when the next
 * build starts, so it holds one build's worth of chunks at most.
 */
export class RebuildChunkCache implements ChunkCache {
  private previous = new Map<string, Uint8Array[] | null>();
  private current = new Map<string, Uint8Array[] | null>();
  hits = 0;

  /** Call before each build. */
  nextBuild(): this {
    this.previous = this.current.size > 0 ? this.current : this.previous;
    this.current = new Map();
    this.hits = 0;
    return this;
  }

  get(data: Uint8Array, method: number): Uint8Array[] | null | undefined {
    const key = keyOf(data, method);
    const chunks = this.current.has(key) ? this.current.get(key) : this.previous.get(key);
    if (chunks !== undefined) {
      this.hits++;
      this.current.set(key, chunks);
    }
    return chunks;
  }

  set(data: Uint8Array, method: number, chunks: Uint8Array[] | null): void {
    this.current.set(keyOf(data, method), chunks);
  }
}

function keyOf(data: Uint8Array, method: number): string {
  return `${method}:${data.length}:${createHash('sha1').update(data).digest('base64')}`;
}
