import type { FileHandle } from 'node:fs/promises';

/**
 * Reads at most `size` bytes from the start of an open file: the size checked at open time, so a file that keeps
 * growing (a log, or an attacker appending) cannot push a read past the limit that was checked.
 */
export async function readBounded(handle: FileHandle, size: number): Promise<Buffer> {
  const out = Buffer.alloc(size);
  let at = 0;
  while (at < size) {
    const { bytesRead } = await handle.read(out, at, size - at, at);
    if (bytesRead === 0) break;
    at += bytesRead;
  }
  return out.subarray(0, at);
}
