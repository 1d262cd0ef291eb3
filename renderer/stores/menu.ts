import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';

/** One command of a context menu. */
export interface MenuItem {
  id: string;
  label: string;
  /** Shown but not chosen (with the reason as its title). */
  disabled?: boolean;
  title?: string;
  run: () => unknown;
}

export interface OpenMenu {
  label: string;
  items: MenuItem[];
  x: number;
  y: number;
  /** Where focus goes back to when the menu closes without a choice. */
  returnFocus: HTMLElement | null;
}

/** Shift+F10 and the ContextMenu key open a menu from the keyboard, as the right button does. */
export function isMenuKey(event: KeyboardEvent): boolean {
  return event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey);
}

/**
 * The one context menu of the studio (ContextMenu.vue draws it): whoever opens it gives the items and
 * where; choosing runs the item's command. `notice` is a short status line ("Copied …") read out politely.
 */
export const useMenuStore = defineStore('menu', () => {
  const open = shallowRef<OpenMenu | null>(null);
  const notice = ref('');

  /** At the pointer for a mouse event; below the element for a keyboard one. */
  function show(event: MouseEvent | KeyboardEvent, label: string, items: MenuItem[], anchor?: HTMLElement | null): void {
    const from = anchor ?? (event.currentTarget instanceof HTMLElement ? event.currentTarget : null);
    let x = 0;
    let y = 0;
    if ('clientX' in event && (event.clientX !== 0 || event.clientY !== 0)) {
      x = event.clientX;
      y = event.clientY;
    } else if (from) {
      const box = from.getBoundingClientRect();
      x = box.left + 16;
      y = box.bottom;
    }
    event.preventDefault();
    event.stopPropagation();
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement : from;
    open.value = { label, items: items.filter(Boolean), x, y, returnFocus: focused };
  }

  function close(restoreFocus = true): void {
    const was = open.value;
    open.value = null;
    if (restoreFocus) was?.returnFocus?.focus();
  }

  async function choose(item: MenuItem): Promise<void> {
    if (item.disabled) return;
    close(true);
    await item.run();
  }

  function say(text: string): void {
    notice.value = text;
  }

  return { open, notice, show, close, choose, say };
});
