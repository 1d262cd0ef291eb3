/**
 * The HPI v1 extraction worker: it opens the archive's file (no directory, no format detection) and is
 * sent a plan (hpi-v1-extract.ts) before its first range of files, so its bundle is small and it is ready
 * as soon as its thread starts. Ranges and their replies carry numbers only (see extract-pool.ts).
 */
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { FileSource } from '../io/byte-source.js';
import { FolderWriter } from '../io/folder-writer.js';
import type { EntryOutcome, WorkerReply, WorkerRequest, WorkerSetup } from './extract-pool.js';
import { errorReply } from './extract-replies.js';
import { plannedFile, V1Extractor, type PlannedFile, type V1Plan } from './hpi-v1-extract.js';

const port = parentPort!;
const post = (m: WorkerReply) => port.postMessage(m);
const setup = workerData as WorkerSetup;

/** The file being written (its path names it in warnings and errors). */
const file: PlannedFile = { path: '', dataOffset: 0, size: 0, flag: 0 };
const warn = (message: string) => post({ type: 'warning', message: `${file.path}: ${message}` });

try {
  const source = FileSource.openSync(setup.path);
  const writer = new FolderWriter(setup.root);
  let plan: V1Plan | null = null;
  let extractor: V1Extractor | null = null;
  port.on('message', (msg: WorkerRequest | V1Plan) => {
    try {
      if (msg.type === 'hpi-v1-plan') {
        plan = msg;
        extractor = new V1Extractor(source, msg.key, writer, setup.keepGoing);
      } else if (msg.type === 'close') {
        void source.close();
        port.close();
      } else {
        if (msg.type !== 'range') throw new Error('this worker is sent ranges, not batches');
        if (!plan || !extractor) throw new Error('a range arrived before the plan');
        const bytes = new Float64Array(msg.to - msg.from);
        const others: [number, EntryOutcome][] = [];
        file.path = '';
        for (let at = msg.from; at < msg.to; at++) {
          plannedFile(plan, at, file);
          const outcome = extractor.extract(file, join(setup.root, file.path), warn);
          if (outcome.kind === 'file') bytes[at - msg.from] = outcome.bytes;
          else {
            bytes[at - msg.from] = -1;
            others.push([at, outcome]);
          }
        }
        post({ type: 'range-done', from: msg.from, bytes, others });
      }
    } catch (err) {
      post(errorReply(err, file.path || undefined));
    }
  });
  post({ type: 'ready' });
} catch (err) {
  post(errorReply(err));
}
