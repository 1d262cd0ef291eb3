/**
 * Text from archives (entry names, above all) shown on a terminal or in a one-line message: control
 * characters are shown escaped, so a name cannot start a new line that fakes a `modpak:` message, move
 * the cursor, retitle the window (OSC) or ring the bell. A tab stays (it fakes nothing). The C0 controls,
 * DEL and the C1 controls (U+0080–U+009F, which some terminals obey as escapes) are written as `\n`, `\r`,
 * `\x1b`, `\x07`, `\x9b`...
 */
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\0': '\\0' };

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;

export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => NAMED[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
