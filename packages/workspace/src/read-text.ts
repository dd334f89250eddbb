import { errnoCode, quotePath, type WorkspaceFailure, workspaceFailure } from './errors.js';
import type { Workspace } from './workspace.js';

/** Options for {@link readWorkspaceText}. */
export interface ReadTextOptions {
  /** Refuse (too_large) a file bigger than this, checked before reading and again while reading. */
  readonly maxBytes?: number;
}

/** A whole file read through the workspace gate and decoded as UTF-8. */
export interface WorkspaceText {
  readonly ok: true;
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
  const opened = await workspace.openRead(path, maxBytes === undefined ? {} : { maxBytes });
  if (!opened.ok) return opened;
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    // Read in steps instead of readFile(): a file that grows after the size check still cannot exceed maxBytes.
    const step = Buffer.allocUnsafe(64 * 1024);
    for (;;) {
      const { bytesRead } = await opened.handle.read(step, 0, step.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (maxBytes !== undefined && total > maxBytes) {
        return workspaceFailure(
          'too_large',
          `${quotePath(path)} grew past the ${maxBytes}-byte limit while it was read. Read a smaller file or a range of it.`,
        );
      }
      chunks.push(Buffer.from(step.subarray(0, bytesRead)));
    }
    const bytes = Buffer.concat(chunks, total);
    return {
      ok: true,
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
