import { closeSync, read, readFile } from 'node:fs';
import { basename, dirname } from 'node:path';
import { promisify } from 'node:util';
import type { HeldFile, Workspace } from '@bough/workspace';
import type { CountingBuffer, HeldParents } from '@bough/workspace/internal';
import { heldAtOffset, startsWithBom } from './offset-check.js';
import type { PendingMatch } from './pending-match.js';
import { linesOf, type OpenFile } from './read-lines.js';

// Files of at least this size have each match checked at ripgrep's byte offset instead of by counting lines from the
// start; smaller files are cheap to re-read, and that check also proves the line number.
const OFFSET_CHECK_BYTES = 1024 * 1024;

const readFd = promisify(read);
const readRestOf = promisify(readFile);

/** The same reads as a FileHandle's, for a descriptor opened in a held directory. */
function plainFile(fd: number): OpenFile {
  return {
    fd,
    read: (buffer, offset, length, position) => readFd(fd, buffer, offset, length, position),
    readFile: () => readRestOf(fd),
  };
}

// Where a held directory looks names up through its descriptor (HeldDir.exact); elsewhere every file goes through
// workspace.openRead without trying the held path.
const HELD_OPENS = process.platform === 'linux';

/**
 * Opens one file for confirming, the gate's way: the gate resolves the path (names, containment, links along the way)
 * and it must come back as itself — for a plain path its parent directory is resolved, once for all the files in it,
 * and the file's own name is checked when it is opened. On Linux the name is then opened without following links
 * inside that directory, held open and proven by the kernel to be the directory the gate returned, and the descriptor
 * must be a regular file within `maxBytes`; a protected name is never opened there. All of that is synchronous, which
 * costs a fraction of the gate's thread-pool open and close. Anywhere this cannot be proven the file goes through
 * `workspace.openRead`, which applies every rule to the whole path again.
 */
async function openForCheck(
  workspace: Workspace,
  path: string,
  maxBytes: number,
  dirs: HeldParents,
): Promise<{ file: OpenFile; size: number; close: () => void } | undefined> {
  if (HELD_OPENS) {
    let opened: HeldFile | undefined;
    const parent = await dirs.parentOf(path);
    if (parent.kind === 'refused') return undefined;
    if (parent.kind === 'held') {
      opened = parent.dir.openFile(parent.name, maxBytes);
    } else {
      const where = await workspace.resolve(path, 'read');
      if (where.success && where.kind === 'file' && where.relative === path) {
        opened = dirs.hold(dirname(where.path))?.openFile(basename(where.path), maxBytes);
      }
    }
    if (opened) {
      const { fd } = opened;
      return { file: plainFile(fd), size: opened.size, close: () => closeSync(fd) };
    }
  }
  const opened = await workspace.openRead(path, { maxBytes });
  if (!opened.success) return undefined;
  const { handle } = opened;
  // Not waited for: nothing more is read through the handle, and the next file can be opened meanwhile.
  return { file: handle, size: opened.size, close: () => void handle.close().catch(() => undefined) };
}

/**
 * Where the last match's line ends by ripgrep's account (its byte offset plus the line's length): how far the first
 * read of the file goes. Only a hint; a file that says otherwise is simply read on.
 */
function bytesToLastLine(matches: readonly PendingMatch[]): number | undefined {
  let end = 0;
  for (const match of matches) {
    if (match.offset === undefined) return undefined;
    end = Math.max(end, match.offset + Buffer.byteLength(match.text) + 1);
  }
  return end;
}

/** What confirming one file decided: matches proven at their byte offset, and the lines read for the others. */
export interface FileCheck {
  readonly atOffset: ReadonlySet<PendingMatch>;
  readonly lines: Map<number, string> | undefined;
}

export const NOTHING_CONFIRMED: FileCheck = { atOffset: new Set(), lines: undefined };

/**
 * Opens one file (see {@link openForCheck}) and confirms its matches. In a large file that ripgrep did not transcode,
 * each match is checked at its byte offset first (a few bytes read instead of the file up to that line); the matches
 * that check cannot prove, and every match of a smaller or transcoded file, are checked by their lines as before.
 */
export async function checkFile(
  workspace: Workspace,
  path: string,
  matches: readonly PendingMatch[],
  maxBytes: number,
  readerFor: (large: boolean) => CountingBuffer,
  dirs: HeldParents,
): Promise<FileCheck> {
  const opened = await openForCheck(workspace, path, maxBytes, dirs);
  if (!opened) return NOTHING_CONFIRMED;
  const { file, size } = opened;
  try {
    const atOffset = new Set<PendingMatch>();
    const byLine = new Set<number>();
    const offsetsUsable = size >= OFFSET_CHECK_BYTES && !startsWithBom(file);
    for (const match of matches) {
      if (offsetsUsable && heldAtOffset(file, size, match)) atOffset.add(match);
      else byLine.add(match.line);
    }
    const lines =
      byLine.size > 0 ? await linesOf(file, byLine, readerFor, bytesToLastLine(matches)) : new Map<number, string>();
    return { atOffset, lines };
  } catch {
    return NOTHING_CONFIRMED; // a file that could not be read is never shown
  } finally {
    opened.close();
  }
}
