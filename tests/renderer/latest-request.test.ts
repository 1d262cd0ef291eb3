import { describe, expect, it } from 'vitest';
import { latestRequest } from '../../renderer/stores/latest-request';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('latestRequest', () => {
  it('keeps the newest answer when an older, slower one arrives later', async () => {
    const r = latestRequest();
    const applied: string[] = [];
    const slow = deferred<string>();
    const fast = deferred<string>();
    const first = r.run(
      () => slow.promise,
      (v) => applied.push(v),
    );
    const second = r.run(
      () => fast.promise,
      (v) => applied.push(v),
    );
    expect(r.loading.value).toBe(true);
    fast.resolve('new');
    await second;
    expect(r.loading.value).toBe(false);
    slow.resolve('old');
    await first;
    expect(applied).toEqual(['new']);
    expect(r.loading.value).toBe(false);
  });

  it('reports only the newest error, and reset drops whatever is under way', async () => {
    const r = latestRequest();
    const failing = deferred<string>();
    const pending = r.run(
      () => failing.promise,
      () => {},
    );
    r.reset();
    failing.reject(new Error('too late'));
    await pending;
    expect(r.error.value).toBeNull();
    await r.run(
      () => Promise.reject(new Error('no such file')),
      () => {},
    );
    expect(r.error.value).toMatch(/no such file/);
  });
});
