import { stat } from 'node:fs/promises';
import type { OpenedFile, Workspace } from '@bough/workspace';
import { countingBuffer } from '@bough/workspace/internal';
import { failure } from './errors.js';
import type { ReaderLimits } from './limits.js';
import type { ReaderResponse } from './schema.js';

const octal = (mode: number) => `0${(mode & 0o7777).toString(8).padStart(3, '0')}`;

/** Counts lines of a text file (a last line without a newline counts too); undefined when it looks binary. */
async function countLines(file: OpenedFile, limits: ReaderLimits, signal?: AbortSignal): Promise<number | undefined> {
  const scratch = countingBuffer(Math.max(1, Math.min(limits.chunkBytes, file.size)));
  let position = 0;
  let lines = 0;
  let last = -1;
  while (position < file.size) {
    if (signal?.aborted) return undefined;
    const { bytesRead } = await file.handle.read(scratch.buffer, 0, scratch.buffer.length, position);
    if (bytesRead === 0) break;
    if (position === 0 && scratch.buffer.subarray(0, Math.min(bytesRead, limits.binarySniffBytes)).includes(0)) {
      return undefined;
    }
    lines += scratch.count(0, bytesRead);
    last = scratch.buffer[bytesRead - 1] ?? -1;
    position += bytesRead;
  }
  return lines + (position > 0 && last !== 0x0a ? 1 : 0);
}

/**
 * The `stat` action: what a path is (file, directory or other), its size, modification time and permission bits,
 * and for a text file of at most `fullScanMaxBytes` its line count. Goes through the same gate as `read`.
 */
export async function statPath(
  ws: Workspace,
  path: string,
  limits: ReaderLimits,
  signal?: AbortSignal,
): Promise<ReaderResponse> {
  const resolved = await ws.resolve(path, 'read');
  if (!resolved.success) return resolved;
  if (resolved.kind === 'directory') {
    try {
      const info = await stat(resolved.path);
      return {
        success: true,
        type: 'stat',
        kind: 'directory',
        path: resolved.path,
        relative: resolved.relative,
        size_bytes: info.size,
        mtime: info.mtime.toISOString(),
        mode: octal(info.mode),
      };
    } catch (error) {
      return failure('io_error', `Could not stat ${resolved.relative} (${(error as { code?: string }).code}).`);
    }
  }
  const file = await ws.openRead(path);
  if (!file.success) return file;
  try {
    const lines = file.size <= limits.fullScanMaxBytes ? await countLines(file, limits, signal) : undefined;
    if (signal?.aborted) return failure('aborted', 'The stat was cancelled.');
    return {
      success: true,
      type: 'stat',
      kind: 'file',
      path: file.path,
      relative: file.relative,
      size_bytes: file.size,
      mtime: new Date(file.mtimeMs).toISOString(),
      mode: octal(file.mode),
      ...(lines !== undefined ? { lines } : {}),
    };
  } catch (error) {
    return failure(
      'io_error',
      `Could not stat ${file.relative} (${(error as { code?: string }).code ?? 'read error'}).`,
    );
  } finally {
    await file.handle.close().catch(() => undefined);
  }
}
