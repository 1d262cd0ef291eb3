/**
 * The part of the WebAssembly JavaScript API the codecs use. Node and Electron provide it as a global;
 * TypeScript declares it only with the DOM's types, which the main-process sources do not load.
 */
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Instance {
    constructor(module: Module, imports: object);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    constructor(descriptor: { initial: number });
    readonly buffer: ArrayBuffer;
  }
  class Global {
    value: number;
  }
}
