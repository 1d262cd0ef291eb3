import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { flushPromises } from '@vue/test-utils';
import { setApi } from '../../renderer/api';
import { FakeStudioApi, type FakeApiOptions } from './fake-api';

/** A fresh Pinia and fake host per test. */
export function freshStudio(options: FakeApiOptions = {}): { api: FakeStudioApi; pinia: Pinia } {
  const pinia = createPinia();
  setActivePinia(pinia);
  const api = new FakeStudioApi(options);
  setApi(api);
  return { api, pinia };
}

/**
 * happy-dom does no layout, so every element measures 0 × 0 and a virtual list would draw no rows. Give
 * elements a viewport-sized box (as a 1280 × 800 window would) for the duration of a test file.
 */
export function giveElementsSize(width = 800, height = 440): void {
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', { configurable: true, get: () => height });
  Object.defineProperty(HTMLElement.prototype, 'offsetWidth', { configurable: true, get: () => width });
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => height });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => width });
}

/** Let the fake's async jobs (which yield with setTimeout) and Vue's updates run to completion. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await flushPromises();
    await new Promise((r) => setTimeout(r, 0));
  }
}

/** Wait (letting promises and Vue run) until `check` holds, failing after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting for the studio');
    await flushPromises();
    await new Promise((r) => setTimeout(r, 10));
  }
  await flushPromises();
}
