import { performance } from 'node:perf_hooks';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** Shared helpers for benchmarks: timing, a scratch folder, and a figure printer. */
export const scratchDir = fileURLToPath(new URL('../.bench/', import.meta.url));

export async function scratch(name: string): Promise<string> {
  const dir = `${scratchDir}${name}`;
  await mkdir(dir, { recursive: true });
  return dir;
}

export async function time<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

export function figure(label: string, value: string, target?: string): void {
  console.log(`${label.padEnd(44)} ${value.padStart(14)}${target ? `   (target ${target})` : ''}`);
}

export const mbps = (bytes: number, ms: number) => `${(bytes / 1048576 / (ms / 1000)).toFixed(1)} MB/s`;
