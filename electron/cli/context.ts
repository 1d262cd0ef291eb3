import type { Writable } from 'node:stream';
import { escapeControls } from '../../shared/escape.js';

/**
 * What a command needs from the outside world, so the CLI runs in-process in tests as well as in a shell.
 * `file` is the file the command is working on, named in the one-line error if it fails.
 */
export interface CliContext {
  stdout: Writable & { isTTY?: boolean };
  stderr: NodeJS.WriteStream | (Writable & { isTTY?: boolean; columns?: number });
  file: string | null;
  /** Print a line to stdout (control characters in it escaped: names come from archives). */
  print(text: string): void;
  /** Print JSON to stdout. */
  printJson(value: unknown): void;
  /** A warning on stderr: `modpak: warning: ...`. */
  warn(message: string): void;
}

export function makeContext(stdout: CliContext['stdout'], stderr: CliContext['stderr']): CliContext {
  return {
    stdout,
    stderr,
    file: null,
    print(text) {
      stdout.write(escapeControls(text) + '\n');
    },
    printJson(value) {
      stdout.write(JSON.stringify(value, null, 2) + '\n');
    },
    warn(message) {
      stderr.write(`modpak: warning: ${escapeControls(message)}\n`);
    },
  };
}
