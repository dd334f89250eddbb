import { errnoCode, quotePath, type WorkspaceFailure, workspaceFailure } from './errors.js';
import type { Workspace } from './workspace.js';

/** Options for {@link readWorkspaceText}. */
export interface ReadTextOptions {
  /** Refuse (too_large) a file bigger than this, checked before reading and again while reading. */
  readonly maxBytes?: number;
}

/** A whole file read through the workspace gate and decoded as UTF-8. */
export interface WorkspaceText {
  readonly success: true;
  /** The content, decoded as UTF-8 (a byte-order mark, if any, is kept). */
  readonly text: string;
  /** Real absolute path of the file that was read. */
  readonly path: string;
  /** Path relative to the workspace root, for display. */
  readonly relative: string;
  /** Bytes read. */
  readonly size: number;
  readonly mtimeMs: number;
  /** True when the first 8 KiB hold a NUL byte: the file is most likely not text, and callers usually skip it. */
  readonly binary: boolean;
}

/** How much of the start of a file is looked at for NUL bytes (the heuristic git and grep use). */
const BINARY_SNIFF_BYTES = 8192;

/** Files up to this size are read at once as they are opened (see {@link Workspace.openOrLoad}). */
const LOAD_BYTES = 64 * 1024;

/**
 * Opens a file with {@link Workspace.openRead} (containment, protected names, no links out, same-file check), reads it
 * whole and closes it. Tools that need text of workspace files share this instead of repeating the open/read/close
 * dance; every refusal is the workspace's own failure value, and a read error becomes `io_error` instead of a throw.
 */
export async function readWorkspaceText(
  workspace: Workspace,
  path: string,
  options: ReadTextOptions = {},
): Promise<WorkspaceText | WorkspaceFailure> {
  const { maxBytes } = options;
  const opened = await workspace.openOrLoad(path, {
    loadBytes: Math.min(LOAD_BYTES, maxBytes ?? LOAD_BYTES),
    ...(maxBytes === undefined ? {} : { maxBytes }),
  });
  if (!opened.success) return opened;
  if (opened.bytes) {
    return {
      success: true,
      text: opened.bytes.toString('utf8'),
      path: opened.path,
      relative: opened.relative,
      size: opened.size,
      mtimeMs: opened.mtimeMs,
      binary: opened.bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0),
    };
  }
  try {
    // One read sized from the verified descriptor's stat, plus one spare byte so growth is noticed; a file that grows
    // after the check is read on, but never past maxBytes (readFile() could not promise that).
    const limit = maxBytes ?? Number.MAX_SAFE_INTEGER;
    let buffer = Buffer.allocUnsafe(Math.min(opened.size, limit) + 1);
    let total = 0;
    for (;;) {
      if (total === buffer.length) {
        if (total > limit) {
          return workspaceFailure(
            'too_large',
            `${quotePath(path)} grew past the ${maxBytes}-byte limit while it was read. Read a smaller file or a range of it.`,
          );
        }
        const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit + 1));
        buffer.copy(grown, 0, 0, total);
        buffer = grown;
      }
      const { bytesRead } = await opened.handle.read(buffer, total, buffer.length - total, null);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    if (total > limit) {
      return workspaceFailure(
        'too_large',
        `${quotePath(path)} grew past the ${maxBytes}-byte limit while it was read. Read a smaller file or a range of it.`,
      );
    }
    const bytes = buffer.subarray(0, total);
    return {
      success: true,
      text: bytes.toString('utf8'),
      path: opened.path,
      relative: opened.relative,
      size: total,
      mtimeMs: opened.mtimeMs,
      binary: bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0),
    };
  } catch (error) {
    return workspaceFailure(
      'io_error',
      `Could not read ${quotePath(path)} (${errnoCode(error) ?? 'unknown error'}). Try again or read another file.`,
    );
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
}
