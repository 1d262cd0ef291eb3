/**
 * The planned extraction worker: it opens the archive's file (no directory, no format detection) and is
 * sent a plan (extract-plan.ts: HPI v1's files, or the spans of the PAK family and Pangya) before its first
 * range of files, so its bundle is small and it is ready as soon as its thread starts. Ranges and their
 * replies carry numbers only (see extract-pool.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { FileSource } from '../io/byte-source.js';
import { FolderWriter } from '../io/folder-writer.js';
import type { EntryOutcome, WorkerReply, WorkerRequest, WorkerSetup } from './extract-pool.js';
import { errorReply } from './extract-replies.js';
import { plannedOut, plannedPath, plannedWrite, type PlannedWrite, type SpanPlan, type V1Plan } from './extract-plan.js';

const port = parentPort!;
const post = (m: WorkerReply) => port.postMessage(m);
const setup = workerData as WorkerSetup;

/** The path of the file being written (it names the file in warnings and errors). */
let path = '';
const warn = (message: string) => post({ type: 'warning', message: `${path}: ${message}` });

try {
  const source = FileSource.openSync(setup.path);
  const writer = new FolderWriter(setup.root);
  let plan: V1Plan | SpanPlan | null = null;
  let write: PlannedWrite | null = null;
  port.on('message', (msg: WorkerRequest | V1Plan | SpanPlan) => {
    try {
      if (msg.type === 'hpi-v1-plan' || msg.type === 'span-plan') {
        plan = msg;
        write = plannedWrite(msg, source, writer, setup.keepGoing, warn);
      } else if (msg.type === 'close') {
        void source.close();
        port.close();
      } else {
        if (msg.type !== 'range') throw new Error('this worker is sent ranges, not batches');
        if (!plan || !write) throw new Error('a range arrived before the plan');
        const bytes = new Float64Array(msg.to - msg.from);
        const others: [number, EntryOutcome][] = [];
        path = '';
        for (let at = msg.from; at < msg.to; at++) {
          path = plannedPath(plan, at);
          const outcome = write(at, path, plannedOut(setup.root, path));
          if (outcome.kind === 'file') bytes[at - msg.from] = outcome.bytes;
          else {
            bytes[at - msg.from] = -1;
            others.push([at, outcome]);
          }
        }
        post({ type: 'range-done', from: msg.from, bytes, others });
      }
    } catch (err) {
      post(errorReply(err, path || undefined));
    }
  });
  post({ type: 'ready' });
} catch (err) {
  post(errorReply(err));
}
