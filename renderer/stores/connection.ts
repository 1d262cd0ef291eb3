import { defineStore } from 'pinia';
import { ref } from 'vue';
import { api } from '../api';

/**
 * Whether the studio still reaches its host. The browser transport says so the moment its event stream
 * closes (the host process stopped), long before a click would fail; the banner tells how to reconnect.
 */
export const useConnectionStore = defineStore('connection', () => {
  const lost = ref(false);
  const message = ref<string | null>(null);

  function set(state: 'connected' | 'lost', why?: string): void {
    lost.value = state === 'lost';
    message.value = state === 'lost' ? (why ?? "The studio's host stopped.") : null;
  }

  return { lost, message, set };
});

/** Follow the transport's connection state. Returns the unsubscribe function. */
export function initConnectionStore(): () => void {
  const store = useConnectionStore();
  return api.onConnection?.((c) => store.set(c.state, c.message)) ?? (() => {});
}
