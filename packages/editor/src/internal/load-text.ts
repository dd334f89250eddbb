import { failure, type ToolFailure } from '@branchkit/core';
import type { OpenedFile, Workspace } from '@branchkit/workspace';
import { type DecodedText, decodeText } from './text-codec.js';

/** A file read whole through the workspace and decoded without loss. */
export type LoadedText =
  | { ok: true; file: Omit<OpenedFile, 'handle'>; bytes: Buffer; decoded: DecodedText }
  | { ok: false; failure: ToolFailure };

/** Opens (no-follow, regular files only, size-capped), reads and strictly decodes a file for editing. */
export async function loadText(ws: Workspace, path: string, maxBytes: number): Promise<LoadedText> {
  const opened = await ws.openRead(path, { maxBytes });
  if (!opened.ok) {
    if (opened.error_code !== 'not_found') return { ok: false, failure: opened };
    return { ok: false, failure: { ...opened, error: `${opened.error} To create a new file use action 'write'.` } };
  }
  const { handle, ...file } = opened;
  let bytes: Buffer;
  try {
    bytes = await handle.readFile();
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

/** Re-opens the file just before writing: same size and mtime, and (when small enough) the same bytes as were read. */
export async function unchangedSince(
  ws: Workspace,
  file: Omit<OpenedFile, 'handle'>,
  bytes: Buffer,
  verifyBytesMax: number,
): Promise<boolean> {
  const again = await ws.openRead(file.path);
  if (!again.ok) return false;
  try {
    if (again.size !== file.size || again.mtimeMs !== file.mtimeMs) return false;
    if (again.size > verifyBytesMax) return true;
    return bytes.equals(await again.handle.readFile());
  } catch {
    return false;
  } finally {
    await again.handle.close().catch(() => undefined);
  }
}
