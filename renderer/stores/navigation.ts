import { defineStore } from 'pinia';
import { ref } from 'vue';

/** The screen on show. Screens are listed in renderer/navigation.ts. */
export const useNavigationStore = defineStore('navigation', () => {
  const current = ref('home');
  function go(id: string): void {
    current.value = id;
  }
  return { current, go };
});
