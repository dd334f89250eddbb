import { createHash } from 'node:crypto';
import { failure, type ToolFailure } from '@bough/core';
import { isWorkspaceFailure, type Workspace } from '@bough/workspace';
import type { FileState } from './file-state.js';
import { DEFAULT_CODING_LIMITS } from './limits.js';

/** Failure codes of the read-before-edit guard. */
export const GUARD_CODES = { notRead: 'not_read', staleRead: 'stale_read', checkFailed: 'guard_check_failed' } as const;

/**
 * Checks that an existing file may be overwritten or edited: its current sha256 must equal what this branch last
 * read or wrote. Returns undefined to proceed (also for new files and for paths the workspace refuses — the
 * standalone editor reports those itself), or a typed failure. A failure to hash is never a silent allow.
 */
export async function checkBeforeEdit(
  workspace: Workspace,
  state: FileState,
  filePath: unknown,
  maxBytes: number = DEFAULT_CODING_LIMITS.guardMaxBytes,
): Promise<ToolFailure | undefined> {
  if (typeof filePath !== 'string' || filePath === '') return undefined;
  const resolved = await workspace.resolve(filePath, 'write');
  if (isWorkspaceFailure(resolved) || !resolved.exists) return undefined;
  if (resolved.kind !== 'file') return undefined;
  const shown = resolved.relative;
  const current = await hashFile(workspace, resolved.path, maxBytes);
  if (typeof current !== 'string') {
    return failure(
      GUARD_CODES.checkFailed,
      `Could not verify that ${shown} is unchanged since you last read it (${current.reason}), so it was not modified. ` +
        'Read it again with the reader tool and retry.',
    );
  }
  const entry = state.get(resolved.path);
  if (!entry) {
    return failure(
      GUARD_CODES.notRead,
      `${shown} exists but has not been read in this conversation (or that read has left the context). ` +
        'Read it with the reader tool first, then retry the edit.',
    );
  }
  if (entry.sha256 !== current) {
    return failure(
      GUARD_CODES.staleRead,
      `${shown} changed since you last read or wrote it. Read it again with the reader tool, then redo the edit against the current content.`,
    );
  }
  return undefined;
}

const HASH_CHUNK_BYTES = 1 << 20;

/** sha256 (hex) of a workspace file, read through the workspace gate; a reason instead when it cannot be read. */
export async function hashFile(
  workspace: Workspace,
  path: string,
  maxBytes: number = DEFAULT_CODING_LIMITS.guardMaxBytes,
): Promise<string | { reason: string }> {
  const opened = await workspace.openRead(path, { maxBytes });
  if (isWorkspaceFailure(opened)) return { reason: opened.error_code };
  try {
    const hash = createHash('sha256');
    // One read for a small file, 1 MiB reads for a big one: each read is a thread-pool round trip.
    const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(opened.size + 1, HASH_CHUNK_BYTES)));
    for (;;) {
      const { bytesRead } = await opened.handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
    return hash.digest('hex');
  } catch (error) {
    return { reason: (error as { code?: string }).code ?? 'read error' };
  } finally {
    await opened.handle.close().catch(() => {});
  }
}
