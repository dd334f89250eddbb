import { failure } from './errors.js';
import type { ReaderLimits } from './limits.js';
import type { ReaderResponse, SingleReaderResponse } from './schema.js';

/** One path's outcome inside a `read_many` response. */
export interface ReadManyEntry {
  readonly path: string;
  readonly result: SingleReaderResponse;
}

/** How many files a `read_many` reads at the same time. */
const CONCURRENCY = 4;

/**
 * The `read_many` action: reads each path as `read` would (same window for every file) and reports each outcome on
 * its own, so one missing or refused file never fails the others. Once the rows reach `maxReadManyBytes` (in the order
 * asked), the remaining paths get an `output_budget` failure saying to read them in another call.
 */
export async function readMany(
  paths: readonly string[],
  readOne: (path: string) => Promise<ReaderResponse>,
  limits: ReaderLimits,
  signal?: AbortSignal,
): Promise<ReaderResponse> {
  const results: SingleReaderResponse[] = new Array(paths.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < paths.length; index = next++) {
      results[index] = signal?.aborted
        ? failure('aborted', 'The call was cancelled before this file was read.')
        : ((await readOne(paths[index] as string)) as SingleReaderResponse);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, paths.length) }, worker));
  // The budget is applied in the order asked, so the answer does not depend on which read finished first.
  let used = 0;
  for (const [index, result] of results.entries()) {
    if (used >= limits.maxReadManyBytes) {
      results[index] = failure(
        'output_budget',
        `Not read: this call already returned ${used} bytes of rows (limit ${limits.maxReadManyBytes}). Read ${paths[index]} in another call.`,
      );
      continue;
    }
    if (result.success && 'content' in result && typeof result.content === 'string') {
      used += Buffer.byteLength(result.content);
    }
  }
  const entries: ReadManyEntry[] = paths.map((path, index) => ({
    path,
    result: results[index] as SingleReaderResponse,
  }));
  const failed = entries.filter((entry) => !entry.result.success).length;
  return { success: true, type: 'many', results: entries, read: entries.length - failed, failed };
}
