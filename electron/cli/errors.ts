import { FormatError } from '../../shared/errors.js';

/** A usage error: exit status 2. */
export class UsageError extends Error {}

/** A failed operation on a named file: one line `modpak: FILE: message`, exit status 1. */
export class CliFailure extends Error {
  constructor(
    readonly file: string | null,
    message: string,
  ) {
    super(message);
  }
}

/** The one line printed for an error, without a stack trace. Unknown errors still get one line. */
export function describeError(err: unknown, file: string | null): string {
  const where = file ? `${file}: ` : '';
  if (err instanceof CliFailure) return `modpak: ${err.file ? `${err.file}: ` : where}${err.message}`;
  if (err instanceof FormatError) {
    // Decoders name what they read ("ARMIMR.3do: …"); when that is the command's file, say it once.
    // Nested decoders may each name it (by its path or its name): drop every leading repeat.
    const own = file ? [`${file}: `, `${file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1)}: `] : [];
    let message = err.message;
    for (let prefix = own.find((p) => message.startsWith(p)); prefix; prefix = own.find((p) => message.startsWith(p)))
      message = message.slice(prefix.length);
    return `modpak: ${where}${message}`;
  }
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e === 'object' && typeof e.code === 'string') {
    const reason: Record<string, string> = {
      ENOENT: 'no such file or folder',
      EACCES: 'permission denied',
      EISDIR: 'is a folder, not a file',
      ENOTDIR: 'not a folder',
      EEXIST: 'already exists',
      ENOSPC: 'no space left on the device',
      EIO: 'input/output error (the disk or the device failed)',
      EMFILE: 'too many open files',
    };
    // The file the error is about (a source deleted mid-pack), not the command's target.
    const errFile = e.path ? `${e.path}: ` : where;
    return `modpak: ${errFile}${reason[e.code] ?? e.message}`;
  }
  if (err instanceof RangeError) return `modpak: ${where}${err.message} (the data is too large or malformed)`;
  return `modpak: ${where}${err instanceof Error ? err.message : String(err)}`;
}
