import type { Workspace } from '@bough/workspace';
import { type CountingBuffer, countingBuffer, HeldParents } from '@bough/workspace/internal';
import { checkFile, type FileCheck, NOTHING_CONFIRMED } from './check-file.js';
import { type PendingMatch, shownPart } from './pending-match.js';
import { SMALL_READ_BYTES } from './read-lines.js';

export { type PendingMatch, RG_CUT_MARKER } from './pending-match.js';

// Files whose matches are being confirmed at the same time; each holds at most one read buffer.
const CONFIRM_CONCURRENCY = 8;
// Read size while looking for the lines to confirm in a large file (one such buffer per large file in flight).
const CONFIRM_READ_BYTES = 1024 * 1024;

// Small read buffers outlive one call, so a search does not allocate (and zero) a fresh set each time: at most one per
// file in flight is kept, 512 KiB in all. The large SIMD buffers are made per call and dropped with it.
const sharedSmall: CountingBuffer[] = [];

/** Runs `work` over `items` with at most `limit` at a time; `cancelled()` stops picking up new items. */
function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
  cancelled: () => boolean,
) {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !cancelled()) await work(items[next++] as T);
  };
  return Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Keeps only the matches whose text is really in the file the workspace gate opens now: on that line, or (files of
 * `OFFSET_CHECK_BYTES` and more) at ripgrep's byte offset of that line. ripgrep opens files by path while it walks, so
 * a directory or file swapped for a link during the walk could have shown it text from outside; re-reading through
 * the gate (no links, containment, protected names) means such text never reaches a result — at worst a genuine
 * match is dropped and counted. Each file is opened once: large files are read only at their matches' offsets, other
 * files (and matches the offset check cannot prove) only up to their last match line, with a few files in flight at a
 * time; results are still decided in match order.
 */
export async function confirmMatches(
  workspace: Workspace,
  matches: readonly PendingMatch[],
  maxBytes: number,
  budget: ConfirmBudget = {},
): Promise<{ kept: PendingMatch[]; dropped: number; unchecked: number }> {
  const byPath = new Map<string, PendingMatch[]>();
  for (const match of matches) {
    const group = byPath.get(match.path);
    if (group) group.push(match);
    else byPath.set(match.path, [match]);
  }
  const files = new Map<string, Promise<FileCheck>>();
  const ready = new Map<string, (check: FileCheck) => void>();
  for (const path of byPath.keys()) {
    files.set(path, new Promise((resolve) => ready.set(path, resolve)));
  }
  let settled = false;
  // Read buffers are reused from file to file: a plain one for small files, a SIMD-counted one for large files.
  const idleSmall: CountingBuffer[] = sharedSmall.splice(0, CONFIRM_CONCURRENCY);
  const idleLarge: CountingBuffer[] = [];
  // Parent directories held open while their files are confirmed, closed once every file is decided.
  const dirs = new HeldParents(workspace);
  const checked = eachLimited(
    [...byPath.keys()],
    CONFIRM_CONCURRENCY,
    async (path) => {
      const taken: [CountingBuffer, CountingBuffer[]][] = [];
      const readerFor = (large: boolean) => {
        const pool = large ? idleLarge : idleSmall;
        const reader =
          pool.pop() ??
          (large
            ? countingBuffer(CONFIRM_READ_BYTES, { simd: true })
            : countingBuffer(SMALL_READ_BYTES, { simd: false }));
        taken.push([reader, pool]);
        return reader;
      };
      let check = NOTHING_CONFIRMED;
      try {
        check = await checkFile(workspace, path, byPath.get(path) as PendingMatch[], maxBytes, readerFor, dirs);
      } catch {
        check = NOTHING_CONFIRMED; // a file the gate could not open is never shown
      } finally {
        for (const [reader, pool] of taken) pool.push(reader);
      }
      ready.get(path)?.(check);
    },
    () => settled,
  );
  const kept: PendingMatch[] = [];
  let dropped = 0;
  try {
    for (const [index, match] of matches.entries()) {
      // Unchecked text is never shown: when time runs out the rest is left out (and counted) instead of waited for.
      if (outOfTime(budget)) return { kept, dropped, unchecked: matches.length - index };
      const check = await files.get(match.path);
      if (check?.atOffset.has(match)) {
        kept.push(match);
        continue;
      }
      const actual = check?.lines?.get(match.line)?.replace(/\r$/, '');
      if (actual?.startsWith(shownPart(match.text))) kept.push(match);
      else dropped++;
    }
    return { kept, dropped, unchecked: 0 };
  } finally {
    settled = true;
    // Files still in flight when time ran out finish first; then the held directories are closed.
    void checked.then(() => {
      dirs.close();
      // Every reader is back in its pool once no file is in flight; keep the small ones for the next search.
      sharedSmall.push(...idleSmall.splice(0, CONFIRM_CONCURRENCY - sharedSmall.length));
    });
  }
}

/** When confirming must stop: the search's own deadline (epoch ms) and the call's abort signal. */
export interface ConfirmBudget {
  readonly deadline?: number;
  readonly signal?: AbortSignal;
}

/** Checking may use what is left of the search budget, and at least `confirmMs` once ripgrep has ended. */
export function confirmDeadline(started: number, limits: { timeoutMs: number; confirmMs: number }): number {
  return Math.max(started + limits.timeoutMs, Date.now() + limits.confirmMs);
}

/** True once the call was cancelled or the confirmation deadline has passed. */
export function outOfTime(budget: ConfirmBudget): boolean {
  return (budget.signal?.aborted ?? false) || (budget.deadline !== undefined && Date.now() >= budget.deadline);
}
