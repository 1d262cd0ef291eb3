import { formatBytes, formatCount } from '../lib/bytes';
import { isTargetConflict } from '../lib/errors';
import { useErrorsStore } from './errors';
import { useJobsStore } from './jobs';

interface Extracted {
  files: number;
  bytes: number;
  refused: readonly unknown[];
}

/**
 * One extraction as a job, for the Files and Archive screens: true when done, false when it failed or was
 * cancelled, 'exists' when the folder already holds files and `overwrite` was not given (the studio asks,
 * then calls again with it).
 */
export async function runExtraction(
  label: string,
  target: string,
  work: (jobId: string, target: string) => Promise<Extracted>,
): Promise<boolean | 'exists'> {
  const folder = target.trim();
  if (!folder) {
    useErrorsStore().report('Choose a folder to extract to first.', 'Extract');
    return false;
  }
  try {
    const result = await useJobsStore().run(
      label,
      (jobId) => work(jobId, folder),
      (r) =>
        `${formatCount(r.files)} files, ${formatBytes(r.bytes)} written to ${folder}` +
        (r.refused.length ? `; ${r.refused.length} refused (unsafe names)` : ''),
      undefined,
      isTargetConflict,
    );
    return result !== null;
  } catch (error) {
    if (isTargetConflict(error)) return 'exists';
    throw error;
  }
}
