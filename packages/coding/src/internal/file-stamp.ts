import { lstatSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A file's identity and version as the kernel keeps them: device, inode, size, mtime and ctime (nanoseconds). Any
 * write, truncate, rename over it or `utimes` moves the ctime forward, and the ctime cannot be set by a user, so two
 * equal stamps taken far enough apart in time mean the bytes did not change in between — without reading them.
 */
export type FileStamp = string;

/**
 * How long after its last change a file's stamp is trusted. File times come from a clock that advances a tick at a
 * time (a few milliseconds); a second write in the same tick as the first would leave the stamp as it was, so a
 * stamp is only taken once the file has been quiet for longer than a tick.
 */
export const SETTLE_MS = 50;
const SETTLE_NS = BigInt(SETTLE_MS) * 1_000_000n;

/** The stamp of `path` (the last component not followed when `follow` is false), with its ctime and size. */
async function stampOf(
  path: string,
  follow: boolean,
): Promise<{ stamp: FileStamp; ctimeNs: bigint; size: bigint } | undefined> {
  try {
    // Synchronous: a stat answers from the inode cache in microseconds, and every read and edit takes one or two,
    // where the promise form costs a thread-pool round trip (two context switches) each.
    const options = { bigint: true, throwIfNoEntry: false } as const;
    const s = follow ? statSync(path, options) : lstatSync(path, options);
    if (!s?.isFile()) return undefined;
    return { stamp: `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`, ctimeNs: s.ctimeNs, size: s.size };
  } catch {
    return undefined;
  }
}

/**
 * True when `path` is a file (followed) of fewer than `minBytes` bytes: most reads are of such files and need no
 * stamp, which a plain stat tells without the nanosecond (bigint) one a stamp is made of. Anything else, including a
 * stat that fails, is left to {@link stampOf} to judge.
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
 * hashed by the reader). A file changed less than {@link SETTLE_MS} ago is waited for first, for at most
 * {@link SETTLE_ROUNDS} waits; one still changing after them, one whose ctime is in the future (a clock that disagrees
 * with this one), or one whose times have no sub-second part (a filesystem with coarse times, where a tick is seconds
 * long) gets no stamp at all.
 */
export async function stampBeforeRead(path: string, minBytes: number): Promise<PendingStamp | undefined> {
  if (smallerThan(path, minBytes)) return undefined;
  for (let round = 0; round < SETTLE_ROUNDS; round++) {
    const got = await stampOf(path, true);
    if (!got || got.size < BigInt(minBytes) || got.ctimeNs % 1_000_000_000n === 0n) return undefined;
    const age = BigInt(Date.now()) * 1_000_000n - got.ctimeNs;
    if (age < -SETTLE_NS) return undefined;
    if (age >= SETTLE_NS) return { stamp: got.stamp };
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
  const after = await stampOf(realPath, false);
  return after?.stamp === pending.stamp ? after.stamp : undefined;
}

/** The current stamp of a real path (not following a link in its last component), or undefined. */
export async function currentStamp(realPath: string): Promise<FileStamp | undefined> {
  return (await stampOf(realPath, false))?.stamp;
}
