// Worker entry: register the TypeScript loader in this thread, then run the worker (no build step needed).
import { register } from 'tsx/esm/api';

register();
await import('./extract-worker.ts');
