import { statSync } from 'node:fs';

/**
 * A file's identity and last change (device, inode, size, modification and status-change times in nanoseconds), or
 * undefined when it is not a regular file. Equal stamps mean the same file object with the same content: a write
 * moves the change time, which no caller can set back. One synchronous `stat`: on a warm call it replaces the gate's
 * path walk and the read, which go through libuv's thread pool and cost milliseconds on a loaded machine.
 */
export function fileStamp(path: string): string | undefined {
  try {
    const stat = statSync(path, { bigint: true, throwIfNoEntry: false });
    if (!stat?.isFile()) return undefined;
    return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
  } catch {
    return undefined;
  }
}
