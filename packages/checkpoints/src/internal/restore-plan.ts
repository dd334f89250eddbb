import { createHash } from 'node:crypto';
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileChange } from '@bough/workspace';
import { gitOut, type StoreCore } from './core.js';
import type { SkippedPath } from './exclusions.js';
import { nulList } from './git.js';

/** One path that differs between the checkpoint restored to and the current state. */
export interface DiffEntry {
  readonly path: string;
  /** Mode and blob in the checkpoint restored to (undefined: the file did not exist then). */
  readonly want?: { readonly mode: string; readonly blob: string };
  /** Mode and blob now (undefined: the file does not exist now). */
  readonly have?: { readonly mode: string; readonly blob: string };
}

const ZERO = /^0+$/u;

/** The files that differ between two trees, limited to `paths` (a path names a file or everything under a folder). */
export async function treeDiff(core: StoreCore, from: string, to: string, paths: readonly string[]) {
  return parseTreeDiff(await gitOut(core, treeDiffArgs(from, to, paths)));
}

/** The `diff-tree` arguments of {@link treeDiff}. */
export function treeDiffArgs(from: string, to: string, paths: readonly string[]): string[] {
  return ['diff-tree', '-r', '-z', '--no-renames', from, to, ...(paths.length ? ['--', ...paths] : [])];
}

/** Reads `diff-tree -r -z` output: the old side is what the file is now (`have`), the new side what it becomes. */
export function parseTreeDiff(stdout: Buffer): DiffEntry[] {
  const out = nulList(stdout);
  const entries: DiffEntry[] = [];
  for (let i = 0; i + 1 < out.length; i += 2) {
    const [modeA, modeB, blobA, blobB] = out[i]!.slice(1).split(' ');
    const path = out[i + 1]!;
    entries.push({
      path,
      ...(ZERO.test(modeB!) ? {} : { want: { mode: modeB!, blob: blobB! } }),
      ...(ZERO.test(modeA!) ? {} : { have: { mode: modeA!, blob: blobA! } }),
    });
  }
  return entries;
}

/** Keeps out what a restore must never touch: paths kept out of the store now, links and nested repositories. */
export async function restorable(core: StoreCore, entries: readonly DiffEntry[]) {
  const excluded = await core.exclusions.load();
  const keep: DiffEntry[] = [];
  const skipped: SkippedPath[] = [];
  for (const entry of entries) {
    const reason = excluded.get(entry.path) ?? excluded.get(`${entry.path}/`);
    const odd = [entry.want?.mode, entry.have?.mode].find((m) => m === '120000' || m === '160000');
    if (reason) skipped.push({ path: entry.path, reason });
    else if (odd) skipped.push({ path: entry.path, reason: odd === '120000' ? 'symlink' : 'nested_repository' });
    else if (core.workspace.isProtected(entry.path)) skipped.push({ path: entry.path, reason: 'protected' });
    else if (core.exclude?.(entry.path)) skipped.push({ path: entry.path, reason: 'excluded' });
    else keep.push(entry);
  }
  return { keep, skipped };
}

/** Permission bits for a file whose executable bit follows git's mode; other bits stay as they are now. */
function modeFor(gitMode: string, current: number | undefined): number | undefined {
  const exec = gitMode === '100755';
  if (current === undefined) return undefined;
  const bits = current & 0o777;
  return exec ? bits | ((bits & 0o444) >> 2) : bits & ~0o111;
}

/** git's object id of a blob with these bytes (sha1 or sha256, by the length of the id it is compared with). */
function blobId(data: Uint8Array, like: string): string {
  const hash = createHash(like.length === 64 ? 'sha256' : 'sha1');
  hash.update(`blob ${data.byteLength}\0`);
  hash.update(data);
  return hash.digest('hex');
}

function readOrUndefined(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Thrown when a file no longer holds what the store just recorded: someone changed it during the restore. */
export class ChangedDuringRestore extends Error {
  constructor(readonly path: string) {
    super(`${path} changed during the restore`);
  }
}

/**
 * The workspace transaction that turns the current files into the checkpoint's, with bytes and modes (`want` holds the
 * checkpoint's blobs by id, read beforehand in one batch). The current
 * bytes are read from the disk and must hash to what the store recorded a moment ago (else {@link ChangedDuringRestore});
 * the transaction then checks them once more right before it commits.
 */
export async function changesFor(
  core: StoreCore,
  entries: readonly DiffEntry[],
  want: ReadonlyMap<string, Buffer>,
): Promise<FileChange[]> {
  const current = (entry: DiffEntry) => {
    const data = readOrUndefined(join(core.workspace.root, entry.path));
    if (data === undefined || blobId(data, entry.have!.blob) !== entry.have!.blob) {
      throw new ChangedDuringRestore(entry.path);
    }
    return data;
  };
  const change = (entry: DiffEntry): FileChange | undefined => {
    if (entry.want && !entry.have) {
      // A new file gets the usual default mode (the umask applies) unless git recorded it executable.
      const exec = entry.want.mode === '100755';
      return { kind: 'create', path: entry.path, data: blob(entry.want.blob), ...(exec ? { mode: 0o755 } : {}) };
    }
    if (!entry.want && entry.have) return { kind: 'delete', path: entry.path, expected: current(entry) };
    if (!entry.want || !entry.have) return undefined;
    const st = lstatSync(join(core.workspace.root, entry.path), { throwIfNoEntry: false });
    const expected = current(entry);
    const mode = modeFor(entry.want.mode, st?.mode);
    return {
      kind: 'replace',
      path: entry.path,
      data: blob(entry.want.blob),
      expected,
      ...(mode === undefined ? {} : { mode }),
    };
  };
  const blob = (id: string) => {
    const data = want.get(id);
    if (data === undefined) throw new Error(`the blob ${id} was not read`);
    return data;
  };
  // Read synchronously: a restore's files are source files read in microseconds each, while an asynchronous read waits
  // for a thread-pool turn, which on a busy machine cost more than the restore's own work.
  return entries.map(change).filter((c): c is FileChange => c !== undefined);
}
