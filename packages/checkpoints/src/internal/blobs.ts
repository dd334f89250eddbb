import { startProcess } from '@bough/process';
import { type GitContext, storeProcess } from './git.js';

/** Thrown when the blob reader fails; the store turns it into a `store_error` value. */
class BlobReadFault extends Error {}

/**
 * Reads many blobs with one git process: `git cat-file --batch` takes the ids on stdin and answers each with a header
 * line (`<id> blob <size>`) and the raw bytes, so no second listing is needed for the sizes. Started through
 * `@bough/process` (its own process group, the same scratch environment as every store step) and stopped when it
 * outlives the store's git timeout. The process starts now; the returned function asks it for the ids once they are
 * known, so its start-up overlaps the work that finds them. Call it exactly once (with no ids when nothing is wanted:
 * the process then simply ends).
 */
export function startBlobReader(ctx: GitContext): (ids: readonly string[]) => Promise<Map<string, Buffer>> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const { argv, spawn } = storeProcess(ctx, ['cat-file', '--batch']);
  const starting = startProcess(argv, {
    ...spawn,
    stdinPipe: true,
    onStdout: (chunk) => out.push(chunk),
    onStderr: (chunk) => err.push(chunk),
  });
  return async (ids) => {
    const blobs = new Map<string, Buffer>();
    const wanted = [...new Set(ids)];
    const started = await starting;
    if (!started.success) throw new BlobReadFault(`${started.error_code}: ${started.error}`);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void started.stop(1_000);
    }, ctx.timeoutMs);
    started.stdin?.end(wanted.length > 0 ? `${wanted.join('\n')}\n` : '');
    const exit = await started.done;
    clearTimeout(timer);
    if (timedOut) throw new BlobReadFault(`git cat-file did not finish within ${ctx.timeoutMs} ms`);
    if (exit.return_code !== 0) {
      const why = Buffer.concat(err).toString('utf8').trim();
      throw new BlobReadFault(why || `git cat-file exited with ${exit.return_code ?? exit.signal}`);
    }
    parseBatch(Buffer.concat(out), wanted, blobs);
    return blobs;
  };
}

/** Splits `cat-file --batch` output into the blobs asked for, in order; anything unexpected is a fault. */
function parseBatch(raw: Buffer, wanted: readonly string[], into: Map<string, Buffer>): void {
  let offset = 0;
  for (const id of wanted) {
    const end = raw.indexOf(0x0a, offset);
    if (end < 0) throw new BlobReadFault(`git cat-file stopped before ${id}`);
    const [got, type, size] = raw.subarray(offset, end).toString('utf8').split(' ');
    if (got !== id || type !== 'blob' || size === undefined) {
      throw new BlobReadFault(
        `git cat-file answered ${JSON.stringify(raw.subarray(offset, end).toString('utf8'))} for ${id}`,
      );
    }
    const start = end + 1;
    const stop = start + Number(size);
    if (stop + 1 > raw.length) throw new BlobReadFault(`git cat-file cut the blob ${id} short`);
    into.set(id, raw.subarray(start, stop));
    offset = stop + 1; // the newline after each blob
  }
}
