/**
 * The worker side of isolated archive work (see isolated-archive.ts): opens, lists or verifies one archive
 * the user picked and answers with the result. A hostile archive that exhausts this worker's heap or time
 * ends this thread only; the host answers an error and goes on.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { toThreadError } from '../io/thread-errors.js';
import { archiveInfo, listArchive } from './archive-service.js';
import { verifyArchive } from './archive-verify.js';
import type { ArchiveTask, ArchiveTaskReply } from './isolated-archive.js';

const port = parentPort!;
const task = workerData as ArchiveTask;
const post = (m: ArchiveTaskReply) => port.postMessage(m);

try {
  if (task.kind === 'open') {
    const info = await archiveInfo(task.path);
    const entries = await listArchive(task.path);
    post({ type: 'done', result: { path: task.path, info, entries } });
  } else {
    // In this thread only: the isolation limits (heap, time) are this worker's, and nested threads would escape them.
    const result = await verifyArchive(task.path, {
      workers: 0,
      onProgress: (done, total, label) => post({ type: 'progress', done, total, label }),
    });
    post({ type: 'done', result });
  }
} catch (err) {
  post({ type: 'error', ...toThreadError(err) });
}
