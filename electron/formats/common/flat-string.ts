/**
 * A path built as `prefix + name` is a rope (V8's ConsString): every later character walk (hashing it as a
 * lookup key, upper-casing it, serialising it) first pays to flatten it, once per string object. Directory
 * readers flatten each entry path once, while building it, so lookups and listings get flat strings.
 * `s | 0` asks for a number, which flattens the string in place (the idiom of the `flatstr` package).
 */
export function flatString(s: string): string {
  // eslint-disable-next-line @typescript-eslint/no-unused-expressions
  (s as unknown as number) | 0;
  return s;
}
