import fs from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { vi } from 'vitest';

/** How often one file was opened and read since {@link countFileIo} started watching it. */
export interface FileIoCounts {
  readonly opens: number;
  readonly reads: number;
}

let handleProto: FileHandle | undefined;

async function fileHandlePrototype(): Promise<FileHandle> {
  if (!handleProto) {
    const probe = await open(import.meta.filename, 'r');
    handleProto = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
  }
  return handleProto;
}

/**
 * Counts the opens of `path` (a real absolute path) and the reads of its bytes from now on, whichever way they go:
 * through a `FileHandle` (`fs.promises.open`, `handle.read`) or through the synchronous calls small files are read
 * with (`openSync`, `readSync`; named imports of `node:fs` follow the patched functions). Reads through a handle are
 * counted for every handle, so keep other file reads out of the measured code. Undo with `vi.restoreAllMocks()`
 * followed by `syncBuiltinESMExports()` from `node:module`.
 */
export async function countFileIo(path: string): Promise<() => FileIoCounts> {
  const proto = await fileHandlePrototype();
  const fds = new Set<number>();
  const counts = { opens: 0, reads: 0 };
  const openSync = fs.openSync;
  vi.spyOn(fs, 'openSync').mockImplementation((...args: Parameters<typeof fs.openSync>) => {
    const fd = openSync(...args);
    if (String(args[0]) === path) {
      counts.opens++;
      fds.add(fd);
    }
    return fd;
  });
  const readSync = fs.readSync as (...args: unknown[]) => number;
  vi.spyOn(fs, 'readSync').mockImplementation(((...args: unknown[]) => {
    if (fds.has(args[0] as number)) counts.reads++;
    return readSync(...args);
  }) as typeof fs.readSync);
  const handleOpens = vi.spyOn(fs.promises, 'open');
  syncBuiltinESMExports();
  const handleReads = vi.spyOn(proto, 'read');
  const handleReadFiles = vi.spyOn(proto, 'readFile');
  return () => ({
    opens: counts.opens + handleOpens.mock.calls.filter(([at]) => String(at) === path).length,
    reads: counts.reads + handleReads.mock.calls.length + handleReadFiles.mock.calls.length,
  });
}

/** Ends every {@link countFileIo} (and any other spy), putting the real `node:fs` functions back. */
export function stopCountingFileIo(): void {
  vi.restoreAllMocks();
  syncBuiltinESMExports();
}
