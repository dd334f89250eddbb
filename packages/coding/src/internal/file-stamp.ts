import { statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { FILE_STAMP_SETTLE_MS, type FileStamp, fileStamp, stampParts } from '@bough/workspace/internal';

// The stamp itself (device, inode, size, mtime, ctime) and how long a file must settle before one is trusted are
// @bough/workspace's, shared with the language-server client and structural search; the waiting is this guard's own.
const SETTLE_NS = BigInt(FILE_STAMP_SETTLE_MS) * 1_000_000n;

/**
 * True when `path` is a file (followed) of fewer than `minBytes` bytes: most reads are of such files and need no
 * stamp, which a plain stat tells without the nanosecond (bigint) one a stamp is made of. Anything else, including a
 * stat that fails, is left to the stamp to judge.
 */
function smallerThan(path: string, minBytes: number): boolean {
  try {
    const s = statSync(path, { throwIfNoEntry: false });
    return s?.isFile() === true && s.size < minBytes;
  } catch {
    return false;
  }
}

/** A stamp taken before a read, to be confirmed after it with {@link confirmStamp}. */
export interface PendingStamp {
  readonly stamp: FileStamp;
}

/**
 * Takes the stamp of the file at `path` before a read of it, for files of at least `minBytes` (smaller files are
 * hashed by the reader). A file changed less than `FILE_STAMP_SETTLE_MS` ago is waited for first, for at most
 * {@link SETTLE_ROUNDS} waits; one still changing after them, one whose ctime is in the future (a clock that disagrees
 * with this one), or one whose times have no sub-second part (a filesystem with coarse times, where a tick is seconds
 * long) gets no stamp at all.
 */
export async function stampBeforeRead(path: string, minBytes: number): Promise<PendingStamp | undefined> {
  if (smallerThan(path, minBytes)) return undefined;
  for (let round = 0; round < SETTLE_ROUNDS; round++) {
    const stamp = fileStamp(path, { follow: true });
    if (!stamp) return undefined;
    const { size, ctimeNs } = stampParts(stamp);
    if (size < BigInt(minBytes) || ctimeNs % 1_000_000_000n === 0n) return undefined;
    const age = BigInt(Date.now()) * 1_000_000n - ctimeNs;
    if (age < -SETTLE_NS) return undefined;
    if (age >= SETTLE_NS) return { stamp };
    // Timers count whole milliseconds of their own clock, so a wait can end a little short of the wall-clock time
    // asked for; the file may also have changed again meanwhile. Either way the next round looks again.
    await sleep(Number((SETTLE_NS - age) / 1_000_000n) + 1);
  }
  // Still changing: no stamp rather than one that cannot tell two writes apart.
  return undefined;
}

/** How many times {@link stampBeforeRead} waits for a file to settle before it gives up on a stamp. */
const SETTLE_ROUNDS = 4;

/**
 * The stamp to record after a read of `realPath` (the path the reader actually opened): the one taken before, if the
 * file still has it — the bytes the read returned are then the bytes that stamp stands for.
 */
export async function confirmStamp(pending: PendingStamp, realPath: string): Promise<FileStamp | undefined> {
  const after = fileStamp(realPath);
  return after === pending.stamp ? after : undefined;
}

/** The current stamp of a real path (not following a link in its last component), or undefined. */
export async function currentStamp(realPath: string): Promise<FileStamp | undefined> {
  return fileStamp(realPath);
}
