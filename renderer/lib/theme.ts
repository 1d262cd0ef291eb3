/** The colour theme: the system's (prefers-color-scheme) unless the user chose light or dark; remembered. */
export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'modpak.theme';

export function savedTheme(): ThemeChoice {
  const saved = globalThis.localStorage?.getItem(KEY);
  return saved === 'light' || saved === 'dark' ? saved : 'system';
}

export function applyTheme(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
  if (choice === 'system') globalThis.localStorage?.removeItem(KEY);
  else globalThis.localStorage?.setItem(KEY, choice);
}
