/**
 * The renderer's preview decoders report bad input through one helper, so every caller can tell a damaged
 * file (show the message) from a bug (let it reach the error boundary).
 */
export type CodecErrorCode = 'truncated' | 'bad-header' | 'unsupported' | 'too-large';

export class CodecError extends Error {
  constructor(readonly code: CodecErrorCode, message: string) {
    super(message);
    this.name = 'CodecError';
  }
}

export function codecFail(code: CodecErrorCode, message: string): never {
  throw new CodecError(code, message);
}
