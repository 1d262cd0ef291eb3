/**
 * The HPI v1 extraction worker: it opens the archive's file (no directory, no format detection) and is
 * sent a plan of data offsets, sizes and flags (hpi-v1-extract.ts) before its first batch, so its bundle
 * is small and it is ready as soon as its thread starts. Batches are as for the format-neutral worker
 * (extract-worker.ts), and so are its replies.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { FileSource } from '../io/byte-source.js';
import { FolderWriter } from '../io/folder-writer.js';
import type { EntryOutcome, WorkerReply, WorkerRequest, WorkerSetup } from './extract-pool.js';
import { errorReply } from './extract-replies.js';
import { V1Extractor, type V1Plan } from './hpi-v1-extract.js';

const port = parentPort!;
const post = (m: WorkerReply) => port.postMessage(m);
const setup = workerData as WorkerSetup;

/** The entry being written, for its warnings and errors (paths are the out paths below the target). */
let current = '';
const warn = (message: string) => post({ type: 'warning', message: `${current}: ${message}` });

try {
  const source = FileSource.openSync(setup.path);
  const writer = new FolderWriter(setup.root);
  let extractor: V1Extractor | null = null;
  port.on('message', (msg: WorkerRequest | V1Plan) => {
    try {
      if (msg.type === 'hpi-v1-plan') extractor = new V1Extractor(source, msg, writer, setup.keepGoing);
      else if (msg.type === 'close') {
        void source.close();
        port.close();
      } else {
        if (!extractor) throw new Error('a batch arrived before the plan');
        const done: [index: number, outcome: EntryOutcome][] = [];
        for (const { index, out } of msg.items) {
          current = out.slice(setup.root.length + 1);
          done.push([index, extractor.extract(index, out, current, warn)]);
        }
        post({ type: 'batch-done', files: done });
      }
    } catch (err) {
      post(errorReply(err, current));
    }
  });
  post({ type: 'ready' });
} catch (err) {
  post(errorReply(err));
}
