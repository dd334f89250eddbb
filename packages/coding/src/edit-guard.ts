import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import type { ToolFailure } from '@bough/core';
import type { KnownFile } from '@bough/editor';
import { isWorkspaceFailure, type Workspace } from '@bough/workspace';
import { fail } from './errors.js';
import type { FileState } from './file-state.js';
import { evidenceNeed, firstUnseenSpan, linesOf } from './internal/edit-spans.js';
import { currentStamp } from './internal/file-stamp.js';
import { type CodingLimits, DEFAULT_CODING_LIMITS } from './limits.js';

/**
 * Checks that an existing file may be changed by `request` (an editor request; a bare path asks for the strictest
 * check). Allowed when the whole file is as this branch last read or wrote it (same sha256, or still the stamp a
 * read confirmed), or — after a
 * formatter or another process touched other parts — when every line the request replaces is exactly as a read
 * showed it. Returns undefined to proceed (also for new files and for paths the workspace refuses: the standalone
 * editor reports those itself), or a typed failure. A failure to read the file is never a silent allow. When the
 * check allowed the change after reading the whole file (of at most `guardOwnWriteBytes`), `onRead` is given what it
 * read, so the editor can edit those very bytes instead of reading the file again.
 */
export async function checkBeforeEdit(
  workspace: Workspace,
  state: FileState,
  filePath: unknown,
  limits: GuardLimits = DEFAULT_CODING_LIMITS,
  request?: unknown,
  onRead?: (known: KnownFile) => void,
): Promise<ToolFailure | undefined> {
  if (typeof filePath !== 'string' || filePath === '') return undefined;
  const resolved = await workspace.resolve(filePath, 'write');
  if (isWorkspaceFailure(resolved) || !resolved.exists) return undefined;
  if (resolved.kind !== 'file') return undefined;
  const shown = resolved.relative;
  const entry = state.get(resolved.path);
  if (!entry) {
    return fail(
      'not_read',
      `${shown} exists but has not been read in this conversation (or that read has left the context). ` +
        'Read it with the reader tool first, then retry the edit.',
    );
  }
  // A stamp a read confirmed is still on the file: unchanged since that read, no need to hash it.
  if (entry.stamps.size > 0) {
    const stamp = await currentStamp(resolved.path);
    if (stamp !== undefined && entry.stamps.has(stamp)) return undefined;
  }
  const wantText = entry.windows.length > 0 && request !== undefined;
  const current = await readCurrent(
    workspace,
    resolved.path,
    limits.guardMaxBytes,
    wantText ? limits.guardRangeMaxBytes : -1,
    false,
    onRead ? limits.guardOwnWriteBytes : -1,
  );
  if ('reason' in current) {
    return fail(
      'guard_check_failed',
      `Could not verify that ${shown} is unchanged since you last read it (${current.reason}), so it was not modified. ` +
        'Read it again with the reader tool and retry.',
    );
  }
  const allow = () => {
    if (current.known) onRead?.(current.known);
    return undefined;
  };
  if (entry.digests.has(current.sha256)) return allow();
  const stale = `${shown} changed since you last read or wrote it`;
  const reread = 'Read it again with the reader tool, then redo the edit against the current content.';
  if (current.text === undefined) return fail('stale_read', `${stale}. ${reread}`);
  const need = evidenceNeed(request, current.text);
  if (need.kind === 'digest')
    return fail(
      'stale_read',
      `${stale}, and the text to replace could not be located exactly in what you read. ${reread}`,
    );
  const unseen = firstUnseenSpan(linesOf(current.text), need.spans, entry.windows);
  if (!unseen) return allow();
  const lines = unseen.start === unseen.end ? `line ${unseen.start}` : `lines ${unseen.start}-${unseen.end}`;
  return fail(
    'stale_read',
    `${stale}: ${lines}, which this change replaces, ${
      entry.windows.length > 0 ? 'differ from what you read or were not shown to you' : 'were not shown to you'
    }. Read ${lines} of ${shown} again, then redo the edit against the current content.`,
  );
}

/** The limits the guard works within (see {@link DEFAULT_CODING_LIMITS}). */
export type GuardLimits = Pick<
  CodingLimits,
  'guardMaxBytes' | 'guardRangeMaxBytes' | 'guardOwnWriteBytes' | 'guardStampMinBytes'
>;

/**
 * What the toolkit's own write left in a file: its text when it is at most `guardOwnWriteBytes`, and its digest
 * (`digest`, the one the tool reported, when it did). Undefined when the file cannot be read. `written`, the bytes the
 * tool reports it put in place, stands in for reading the file back.
 */
export async function ownContent(
  workspace: Workspace,
  path: string,
  limits: GuardLimits,
  digest: string | undefined,
  written?: Buffer,
): Promise<{ sha256: string | undefined; text: string | undefined } | undefined> {
  if (written) {
    return {
      sha256: digest ?? createHash('sha256').update(written).digest('hex'),
      text: written.length <= limits.guardOwnWriteBytes ? new TextDecoder().decode(written) : undefined,
    };
  }
  // With a reported digest only the text is of use, so a file too big for it is not read at all.
  const got = await readCurrent(workspace, path, limits.guardMaxBytes, limits.guardOwnWriteBytes, digest !== undefined);
  return 'reason' in got ? undefined : got;
}

/**
 * sha256 of the file and, when it is at most `textMaxBytes`, its text — from one read through the gate; when it is at
 * most `keepMaxBytes`, also the bytes read and what the open reported (`known`). `textOnly` skips a file too big for
 * its text (nothing to learn from it then).
 */
async function readCurrent(
  workspace: Workspace,
  path: string,
  maxBytes: number,
  textMaxBytes: number,
  textOnly = false,
  keepMaxBytes = -1,
): Promise<{ sha256: string; text: string | undefined; known?: KnownFile } | { reason: string }> {
  const opened = await workspace.openOrLoad(path, { maxBytes, loadBytes: LOAD_BYTES });
  if (isWorkspaceFailure(opened)) return { reason: opened.error_code };
  if (opened.bytes) {
    const { handle: _none, bytes, ...file } = opened;
    if (textOnly && file.size > textMaxBytes && file.size > keepMaxBytes) return { reason: 'too large for its text' };
    return {
      sha256: createHash('sha256').update(bytes).digest('hex'),
      text: file.size <= textMaxBytes ? new TextDecoder().decode(bytes) : undefined,
      ...(file.size <= keepMaxBytes ? { known: { file, bytes } } : {}),
    };
  }
  const { handle, bytes: _none, ...file } = opened;
  try {
    if (opened.size > textMaxBytes && opened.size > keepMaxBytes) {
      if (textOnly) return { reason: 'too large for its text' };
      const digest = await hashHandle(handle, opened.size);
      return { sha256: digest, text: undefined };
    }
    const chunks: Buffer[] = [];
    const hash = createHash('sha256');
    const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(opened.size + 1, HASH_CHUNK_BYTES)));
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      const piece = Buffer.from(buffer.subarray(0, bytesRead));
      hash.update(piece);
      chunks.push(piece);
    }
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    return {
      sha256: hash.digest('hex'),
      text: opened.size <= textMaxBytes ? new TextDecoder().decode(bytes) : undefined,
      ...(opened.size <= keepMaxBytes ? { known: { file, bytes } } : {}),
    };
  } catch (error) {
    return { reason: (error as { code?: string }).code ?? 'read error' };
  } finally {
    await handle.close().catch(() => {});
  }
}

/** Files up to this size are read whole as they are opened, without the thread pool (`Workspace.openOrLoad`). */
const LOAD_BYTES = 64 * 1024;

const HASH_CHUNK_BYTES = 1 << 20;

/** sha256 (hex) of a workspace file, read through the workspace gate; a reason instead when it cannot be read. */
export async function hashFile(
  workspace: Workspace,
  path: string,
  maxBytes: number = DEFAULT_CODING_LIMITS.guardMaxBytes,
): Promise<string | { reason: string }> {
  const opened = await workspace.openOrLoad(path, { maxBytes, loadBytes: LOAD_BYTES });
  if (isWorkspaceFailure(opened)) return { reason: opened.error_code };
  if (opened.bytes) return createHash('sha256').update(opened.bytes).digest('hex');
  try {
    return await hashHandle(opened.handle, opened.size);
  } catch (error) {
    return { reason: (error as { code?: string }).code ?? 'read error' };
  } finally {
    await opened.handle.close().catch(() => {});
  }
}

/** sha256 (hex) of an open file from its current position: one read for a small file, 1 MiB reads for a big one. */
async function hashHandle(handle: FileHandle, size: number): Promise<string> {
  const hash = createHash('sha256');
  // Each read is a thread-pool round trip, so small files take one.
  const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(size + 1, HASH_CHUNK_BYTES)));
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) break;
    hash.update(buffer.subarray(0, bytesRead));
  }
  return hash.digest('hex');
}
