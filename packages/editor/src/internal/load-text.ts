import type { FileHandle } from 'node:fs/promises';
import type { OpenedFile, Workspace, WorkspaceFailure } from '@bough/workspace';
import { SYNC_FILE_BYTES } from '@bough/workspace/internal';
import { type EditorFailure, failure } from '../errors.js';
import type { FileShare } from './file-share.js';
import { type DecodedText, decodeText } from './text-codec.js';

/** A file read whole through the workspace and decoded without loss. */
export type LoadedText =
  | { ok: true; file: Omit<OpenedFile, 'handle'>; bytes: Buffer; decoded: DecodedText }
  | { ok: false; failure: EditorFailure };

const PROBE_BYTES = 64 * 1024;
const READ_STEP = 8 * 1024 * 1024;

/** Told about the bytes read so far (`bytes[0, length)`), while the next read is already under way. */
export type OnBytes = (bytes: Buffer, length: number) => void;

/**
 * Reads from the start to the end of the file: the size known from the open in 8 MiB reads into one buffer (a stock
 * `readFile` goes in 512 KiB steps), each read issued before `onData` looks at the bytes already in, then on until
 * end of file in case it grew. Stops once past `maxBytes`.
 */
async function readWhole(handle: FileHandle, size: number, maxBytes: number, onData?: OnBytes): Promise<Buffer> {
  const head = Buffer.allocUnsafe(size);
  let length = 0;
  let pending = size > 0 ? handle.read(head, 0, Math.min(size, READ_STEP), 0) : undefined;
  while (pending) {
    const { bytesRead } = await pending;
    if (bytesRead === 0) return head.subarray(0, length);
    length += bytesRead;
    pending = length < size ? handle.read(head, length, Math.min(size - length, READ_STEP), length) : undefined;
    onData?.(head, length);
  }
  const extra: Buffer[] = [];
  for (;;) {
    const more = Buffer.allocUnsafe(PROBE_BYTES);
    const { bytesRead } = await handle.read(more, 0, more.length, length);
    if (bytesRead === 0) break;
    extra.push(more.subarray(0, bytesRead));
    length += bytesRead;
    if (length > maxBytes) break;
  }
  if (extra.length === 0) return head;
  const whole = Buffer.concat([head, ...extra]);
  onData?.(whole, whole.length);
  return whole;
}

/** A file read whole through the workspace, not yet decoded. */
export type LoadedBytes =
  | { ok: true; file: Omit<OpenedFile, 'handle'>; bytes: Buffer }
  | { ok: false; failure: EditorFailure };

/** A file opened for editing; the caller closes `handle` (or hands it to {@link readOpened}). */
export type OpenedForEdit = { ok: true; opened: OpenedFile } | { ok: false; failure: EditorFailure };

/**
 * The file the caller has just read under this name ({@link FileShare}), when the editor may edit it without reading it
 * again: whole (every byte of its size), within the edit limit, and small enough that the check before writing
 * compares it byte for byte.
 */
export function knownBytes(
  share: FileShare,
  filePath: string,
  limits: { maxFileBytes: number; verifyBytesMax: number },
): Extract<LoadedBytes, { ok: true }> | undefined {
  const known = share.known(filePath);
  if (!known) return undefined;
  const { file, bytes } = known;
  if (bytes.length !== file.size || file.size > limits.verifyBytesMax || file.size > limits.maxFileBytes)
    return undefined;
  return { ok: true, file, bytes };
}

/** Opens (no-follow, regular files only, size-capped) a file for editing, with the editor's wording on failure. */
export async function openForEdit(ws: Workspace, path: string, maxBytes: number): Promise<OpenedForEdit> {
  const opened = await ws.openRead(path, { maxBytes });
  if (opened.success) return { ok: true, opened };
  return { ok: false, failure: editorOpenFailure(opened) };
}

/** The workspace's refusal to open a file for editing, in the editor's words where it has its own. */
function editorOpenFailure(refused: WorkspaceFailure): EditorFailure {
  if (refused.error_code !== 'not_found') return refused;
  return { ...refused, error: `${refused.error} To create a new file use action 'write'.` };
}

/** Reads an opened file whole and closes it; `onData` sees the bytes as they come. */
export async function readOpened(opened: OpenedFile, maxBytes: number, onData?: OnBytes): Promise<LoadedBytes> {
  const { handle, ...file } = opened;
  let bytes: Buffer;
  try {
    bytes = await readWhole(handle, file.size, maxBytes, onData);
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unknown error';
    return { ok: false, failure: failure('io_error', `Could not read ${file.relative} (${code}).`) };
  } finally {
    await handle.close().catch(() => undefined);
  }
  if (bytes.length > maxBytes) {
    return {
      ok: false,
      failure: failure('too_large', `${file.relative} grew past the ${maxBytes}-byte edit limit while being read.`),
    };
  }
  return { ok: true, file, bytes };
}

/** Opens (no-follow, regular files only, size-capped) and reads a file for editing; `onData` sees it as it comes. */
export async function loadBytes(ws: Workspace, path: string, maxBytes: number, onData?: OnBytes): Promise<LoadedBytes> {
  if (!onData) {
    // A file the transaction will write back synchronously is read whole the same way, without the thread pool.
    const got = await ws.openOrLoad(path, { maxBytes, loadBytes: Math.min(SYNC_FILE_BYTES, maxBytes) });
    if (got.success && got.bytes) {
      const { handle: _none, bytes, ...file } = got;
      return { ok: true, file, bytes };
    }
    if (got.success) return readOpened(got, maxBytes);
    return { ok: false, failure: editorOpenFailure(got) };
  }
  const opened = await openForEdit(ws, path, maxBytes);
  return opened.ok ? readOpened(opened.opened, maxBytes, onData) : opened;
}

/** Strictly decodes bytes read by {@link loadBytes}, refusing anything that would not round-trip. */
export function decodeLoaded(file: Omit<OpenedFile, 'handle'>, bytes: Buffer): LoadedText {
  const decoded = decodeText(bytes);
  if (decoded.encoding === null) {
    return {
      ok: false,
      failure: failure(
        'unsupported_encoding',
        `${file.relative} is not valid text in a supported encoding (${decoded.reason} at byte ${decoded.badByteOffset}); ` +
          'it may be Latin-1, GBK or binary. The editor refuses to rewrite it rather than corrupt those bytes; ' +
          'convert it to UTF-8 first (for example with iconv via bash) or leave it unchanged.',
        { bad_byte_offset: decoded.badByteOffset },
      ),
    };
  }
  return { ok: true, file, bytes, decoded };
}

/** Opens (no-follow, regular files only, size-capped), reads and strictly decodes a file for editing. */
export async function loadText(ws: Workspace, path: string, maxBytes: number): Promise<LoadedText> {
  const loaded = await loadBytes(ws, path, maxBytes);
  return loaded.ok ? decodeLoaded(loaded.file, loaded.bytes) : loaded;
}

/** Re-opens the file: true when it is still the same inode, with the size and modification time it had when read. */
export async function statUnchanged(ws: Workspace, file: Omit<OpenedFile, 'handle'>): Promise<boolean> {
  const again = await ws.openRead(file.path);
  if (!again.success) return false;
  await again.handle.close().catch(() => undefined);
  return sameFile(again, file) && again.size === file.size && again.mtimeMs === file.mtimeMs;
}

/** The same inode as was read (a file whose reader did not record it is taken by its other checks alone). */
const sameFile = (now: { dev: number; ino: number }, then: { dev?: number; ino?: number }) =>
  (then.dev === undefined || now.dev === then.dev) && (then.ino === undefined || now.ino === then.ino);

/**
 * Re-opens the file just before writing: the same inode, size and mtime, and (when small enough) the same bytes as
 * were read.
 */
export async function unchangedSince(
  ws: Workspace,
  file: Omit<OpenedFile, 'handle'>,
  bytes: Buffer,
  verifyBytesMax: number,
): Promise<boolean> {
  const again = await ws.openOrLoad(file.path, { loadBytes: Math.min(SYNC_FILE_BYTES, verifyBytesMax) });
  if (!again.success) return false;
  if (!sameFile(again, file)) {
    await again.handle?.close().catch(() => undefined);
    return false;
  }
  if (again.bytes) {
    // Read whole as it was opened: the same size, time and bytes, or it changed.
    return again.size === file.size && again.mtimeMs === file.mtimeMs && bytes.equals(again.bytes);
  }
  try {
    if (again.size !== file.size || again.mtimeMs !== file.mtimeMs) return false;
    if (again.size > verifyBytesMax) return true;
    // One read of one byte more than the size: a full answer means the file grew, exactly the size is the whole file.
    // Only a short read (not seen on local files) falls back to reading on to the end, which costs two more round trips.
    const probe = Buffer.allocUnsafe(again.size + 1);
    const { bytesRead } = await again.handle.read(probe, 0, probe.length, 0);
    if (bytesRead === probe.length) return false;
    if (bytesRead === again.size) return bytes.equals(probe.subarray(0, bytesRead));
    return bytes.equals(await again.handle.readFile());
  } catch {
    return false;
  } finally {
    await again.handle.close().catch(() => undefined);
  }
}
