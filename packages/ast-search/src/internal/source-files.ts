import { closeSync, fstatSync, lstatSync, read, readSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Workspace } from '@bough/workspace';
import {
  addWalkSkips,
  emptySkipCounts,
  extensionOf,
  fileStamp,
  HeldParents,
  skipReasonOf,
  stampOfStats,
  type SkipCounts as WorkspaceSkipCounts,
} from '@bough/workspace/internal';
import type { AstParseCache, CachedSource, FileStamp } from '../parse-cache.js';

/** A file chosen for searching. */
export interface CandidateFile {
  readonly path: string;
  readonly relative: string;
  /** Size seen by the walk, used only to start big files first; the read checks the real size. */
  readonly size?: number;
}

/** Why files under the search path were left out: the workspace's reasons plus binary and unsearched files. */
export interface SkipCounts extends WorkspaceSkipCounts {
  binary: number;
  not_searched: number;
}

/** A fresh set of zeroed skip counters. */
export function emptySkips(): SkipCounts {
  return { ...emptySkipCounts(), binary: 0, not_searched: 0 };
}

/** Size of a listed file for ordering only (largest parsed first); undefined when it cannot be had. */
function sizeHint(path: string): number | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.size;
  } catch {
    return undefined;
  }
}

/**
 * Lists the files under `dir` whose extension belongs to the language, honouring .gitignore and never following links.
 * `maxEntries` caps the files of the language (other files do not use it up); the walk still runs to its end so the
 * skip counts cover the whole directory.
 *
 * The walk trusts the types its directory listings give (`details: false`: one system call per directory instead of an
 * asynchronous lstat per entry, most of which are other languages' files); only the files kept are lstat-ed, at once,
 * for the size that orders the parses. Nothing here is trusted for reading: every file is opened later through the
 * gate or its gated parent directory, which refuses links and anything but a regular file.
 */
export async function listCandidates(
  workspace: Workspace,
  dir: string,
  extensions: ReadonlySet<string>,
  skips: SkipCounts,
  options: { maxEntries: number; signal?: AbortSignal },
): Promise<{ files: CandidateFile[]; truncated: boolean }> {
  const files: CandidateFile[] = [];
  let capped = false;
  const walk = workspace.walk(dir, {
    recursive: true,
    filesOnly: true,
    details: false,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  let step = await walk.next();
  while (!step.done) {
    const entry = step.value;
    const ext = extensionOf(entry.relative);
    if (entry.kind === 'file' && extensions.has(ext)) {
      if (files.length < options.maxEntries) {
        const size = sizeHint(entry.path);
        files.push({ path: entry.path, relative: entry.relative, ...(size === undefined ? {} : { size }) });
      } else capped = true;
    }
    step = await walk.next();
  }
  const summary = step.value;
  addWalkSkips(skips, summary.skipped);
  return { files, truncated: capped || summary.truncated };
}

/** A file read (or found unchanged in the cache) through the workspace gate. */
export type SourceRead =
  | {
      ok: true;
      text: string;
      relative: string;
      /** Real path the gate opened: the cache key. */
      path: string;
      stamp: FileStamp;
      /** The cache entry when the file is unchanged since it was last read. */
      hit?: CachedSource;
    }
  | { ok: false; reason: keyof SkipCounts; error?: string };

function skipFor(code: string, error: string): SourceRead {
  return { ok: false, reason: skipReasonOf(code), error };
}

/** How much of the start of a file is looked at for NUL bytes (as the workspace's text reader does). */
const BINARY_SNIFF_BYTES = 8192;

// Files smaller than this are read into one scratch buffer per search (see readSmall).
const SYNC_READ_BYTES = 256 * 1024;

// Files whose read buffer is at most this big are read synchronously (see readAll).
const SYNC_READ_MAX_BYTES = 4 * 1024 * 1024;

const readFd = promisify(read);

/** A buffer being filled from a descriptor: `total` bytes read so far. */
interface Filling {
  buffer: Buffer;
  total: number;
}

/** Room for the next read, the buffer grown when full; 'too_large' once more than `maxBytes` were read. */
function makeRoom(filling: Filling, maxBytes: number): 'too_large' | undefined {
  if (filling.total < filling.buffer.length) return undefined;
  if (filling.total > maxBytes) return 'too_large';
  const grown = Buffer.allocUnsafe(Math.min(filling.buffer.length * 2, maxBytes + 1));
  filling.buffer.copy(grown, 0, 0, filling.total);
  filling.buffer = grown;
  return undefined;
}

/** The rest of a {@link readAll} whose buffer outgrew {@link SYNC_READ_MAX_BYTES}, read on the thread pool. */
async function readRest(fd: number, filling: Filling, maxBytes: number): Promise<Buffer | 'too_large'> {
  for (;;) {
    if (makeRoom(filling, maxBytes) === 'too_large') return 'too_large';
    const { buffer, total } = filling;
    const { bytesRead } = await readFd(fd, buffer, total, buffer.length - total, null);
    if (bytesRead === 0) break;
    filling.total += bytesRead;
  }
  return filling.total > maxBytes ? 'too_large' : filling.buffer.subarray(0, filling.total);
}

/**
 * Reads the open descriptor whole from its current position, never past `maxBytes`, after the `prefix` already read
 * from it; 'too_large' when it grew past that while it was read. Returns at once (no promise) when the whole file was
 * read synchronously, which is every file of a few MB at most: a read from the page cache costs less than a
 * thread-pool round trip, the pool's threads stay free for the parses, and no await lets the files launched after
 * this one hand their parses to the pool first. With asynchronous reads the largest file, launched first so that its
 * parse starts first, reached the pool behind the parses of smaller files (typescript's lib: lib.dom.d.ts, on the
 * query's critical path). Larger files are read asynchronously, so one read from a cold disk cannot hold the event
 * loop for long.
 */
function readAll(
  fd: number,
  size: number,
  maxBytes: number,
  prefix?: Buffer,
): Buffer | 'too_large' | Promise<Buffer | 'too_large'> {
  const buffer = Buffer.allocUnsafe(Math.min(Math.max(size, (prefix?.length ?? 0) * 2), maxBytes) + 1);
  const filling: Filling = { buffer, total: prefix ? prefix.copy(buffer) : 0 };
  for (;;) {
    if (makeRoom(filling, maxBytes) === 'too_large') return 'too_large';
    if (filling.buffer.length > SYNC_READ_MAX_BYTES) return readRest(fd, filling, maxBytes);
    const bytesRead = readSync(fd, filling.buffer, filling.total, filling.buffer.length - filling.total, null);
    if (bytesRead === 0) break;
    filling.total += bytesRead;
  }
  return filling.total > maxBytes ? 'too_large' : filling.buffer.subarray(0, filling.total);
}

/** What the bytes of a whole file give: its text, or why it is not searched. */
function decoded(bytes: Buffer, maxBytes: number): { text: string } | { reason: 'too_large' | 'binary' } {
  if (bytes.length > maxBytes) return { reason: 'too_large' };
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { reason: 'binary' };
  return { text: bytes.toString('utf8') };
}

/**
 * A file smaller than `scratch` read whole into it and decoded at once, synchronously, so one scratch buffer serves
 * every file of a search (a fresh buffer per file is memory the garbage collector has to chase). The bytes read so far
 * when the file turned out to fill the scratch (it grew since its size was taken); the caller reads the rest.
 */
function readSmall(
  fd: number,
  maxBytes: number,
  scratch: Buffer,
): { text: string } | { reason: 'too_large' | 'binary' } | { partial: Buffer } {
  let total = 0;
  while (total < scratch.length) {
    const bytesRead = readSync(fd, scratch, total, scratch.length - total, null);
    if (bytesRead === 0) return decoded(scratch.subarray(0, total), maxBytes);
    total += bytesRead;
  }
  return { partial: Buffer.from(scratch) };
}

/** The text of a file opened through the gate (or in its gated directory), stamped from its descriptor. */
async function textOf(
  fd: number,
  size: number,
  maxBytes: number,
  where: { relative: string; path: string },
  scratch: Buffer | undefined,
): Promise<SourceRead> {
  try {
    const stamp = stampOfStats(fstatSync(fd, { bigint: true }));
    // Synchronous from the fstat to the decoded text: no other file can use the scratch buffer in between.
    const small = scratch && size < scratch.length ? readSmall(fd, maxBytes, scratch) : undefined;
    let got: { text: string } | { reason: 'too_large' | 'binary' };
    if (small && !('partial' in small)) got = small;
    else {
      const reading = readAll(fd, size, maxBytes, small?.partial);
      const bytes = reading instanceof Promise ? await reading : reading;
      got = bytes === 'too_large' ? { reason: 'too_large' } : decoded(bytes, maxBytes);
    }
    return 'reason' in got ? { ok: false, reason: got.reason } : { ok: true, text: got.text, ...where, stamp };
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
}

/** What one search reads its files with: the gated parent directories and a scratch buffer for small files. */
export interface ReadKit {
  readonly dirs: HeldParents;
  readonly scratch: Buffer;
}

/** A fresh {@link ReadKit}; close its directories with `kit.dirs.close()`. */
export function readKit(workspace: Workspace): ReadKit {
  return { dirs: new HeldParents(workspace), scratch: Buffer.allocUnsafe(SYNC_READ_BYTES) };
}

/**
 * The cache entry of a listed file when the file is still the very one that was read: one synchronous lstat (no link
 * followed) must give the stamp the entry was read with. The same device, inode and change time mean the same,
 * unchanged file, which the workspace gate opened when the entry was made, so neither opening nor reading it again
 * could show anything else; a path that now leads elsewhere (a directory swapped for a link) gives another inode.
 */
function unchanged(file: CandidateFile, lang: string, cache: AstParseCache): SourceRead | undefined {
  // No entry, nothing to compare with: the lstat is left out (a first query stats no file twice).
  if (!cache.has(file.path)) return undefined;
  const stamp = fileStamp(file.path);
  if (stamp === undefined) return undefined;
  const hit = cache.get(file.path, stamp, lang);
  return hit ? { ok: true, text: hit.text, relative: file.relative, path: file.path, stamp, hit } : undefined;
}

/**
 * One file's text: from the cache when the file is unchanged since it was read (see {@link unchanged}), otherwise
 * opened in its gated, held parent directory (see `HeldParents` in @bough/workspace) or, where that cannot be proven, through the workspace
 * gate itself (containment, protected names, no links), stamped from the opened descriptor and read as UTF-8. Says why
 * not when the file cannot be searched (refused, too large, binary, unreadable).
 */
export async function readSource(
  workspace: Workspace,
  file: CandidateFile,
  maxBytes: number,
  lang: string,
  cache: AstParseCache | undefined,
  kit?: ReadKit,
): Promise<SourceRead> {
  const known = cache ? unchanged(file, lang, cache) : undefined;
  if (known) return known;
  const parent = await kit?.dirs.parentOf(file.relative);
  // Synchronous from here to the open: the held directory is not used across an await.
  const inDir = parent?.kind === 'held' ? parent.dir.openFile(parent.name, maxBytes) : undefined;
  if (parent?.kind === 'held' && inDir) {
    const where = { relative: file.relative, path: join(parent.dir.path, parent.name) };
    try {
      return await textOf(inDir.fd, inDir.size, maxBytes, where, kit?.scratch);
    } finally {
      closeSync(inDir.fd);
    }
  }
  // Anything not opened in a held directory (refused, unproven, declined) goes through the gate, which says why.
  const opened = await workspace.openRead(file.path, { maxBytes });
  if (!opened.success) return skipFor(opened.error_code, opened.error);
  try {
    return await textOf(
      opened.handle.fd,
      opened.size,
      maxBytes,
      { relative: opened.relative, path: opened.path },
      kit?.scratch,
    );
  } finally {
    void opened.handle.close().catch(() => undefined);
  }
}
