import { createHash } from 'node:crypto';
import type { LoadedFile, OpenedFile, Workspace } from '@bough/workspace';
import { extensionOf } from '@bough/workspace/internal';
import { failure } from './errors.js';
import { IMAGE_TYPES, looksLikeImage } from './internal/image.js';
import { loadedWindow } from './internal/loaded-window.js';
import { readBounded } from './internal/read-bounded.js';
import { streamWindow } from './internal/stream-window.js';
import { textResponse } from './internal/text-response.js';
import { textWindow } from './internal/text-window.js';
import type { ReaderLimits } from './limits.js';
import type { ReaderResponse } from './schema.js';

/** The 0-based offset and the line limit after applying the clamping rules. */
export interface Window {
  offset: number;
  limit: number;
}

/** Clamps a negative offset to 0 and turns a missing, zero or negative limit into the default. */
export function windowOf(offset: number | undefined, limit: number | undefined, limits: ReaderLimits): Window {
  return {
    offset: Math.max(0, offset ?? 0),
    limit: limit !== undefined && limit > 0 ? limit : limits.defaultLineLimit,
  };
}

/**
 * Files up to this size are read whole as they are opened (no thread-pool round trips, see `Workspace.openOrLoad`);
 * the reader then works on those bytes. Bigger files are read through their descriptor in chunks.
 */
const LOAD_BYTES = 64 * 1024;

async function readHead(file: OpenedFile | LoadedFile, bytes: number): Promise<Buffer> {
  if (file.bytes) return file.bytes;
  const head = Buffer.alloc(Math.min(bytes, file.size));
  const { bytesRead } = await file.handle.read(head, 0, head.length, 0);
  return head.subarray(0, bytesRead);
}

/** The whole file, at most the size it had when it was opened. */
async function wholeFile(file: OpenedFile | LoadedFile): Promise<Buffer> {
  return file.bytes ?? (await readBounded(file.handle, file.size));
}

/** The `read` action for a regular file: numbered text window, an inline image, or a typed refusal. */
export async function readFile(
  ws: Workspace,
  path: string,
  window: Window,
  limits: ReaderLimits,
  signal?: AbortSignal,
): Promise<ReaderResponse> {
  const file = await ws.openOrLoad(path, { loadBytes: LOAD_BYTES });
  if (!file.success) return file;
  try {
    const ext = extensionOf(file.path);
    const head = await readHead(file, Math.max(limits.binarySniffBytes, 16));
    const mediaType = IMAGE_TYPES[ext];
    if (mediaType && looksLikeImage(ext, head)) {
      if (file.size > limits.maxImageBytes) {
        return failure(
          'too_large',
          `${file.relative} is a ${file.size}-byte image, over the ${limits.maxImageBytes}-byte inline limit.`,
        );
      }
      const bytes = await wholeFile(file);
      return {
        success: true,
        type: 'image',
        path: file.path,
        relative: file.relative,
        media_type: mediaType,
        content: `data:${mediaType};base64,${bytes.toString('base64')}`,
        size_bytes: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      };
    }
    const utf16 =
      head[0] === 0xff && head[1] === 0xfe ? 'utf-16le' : head[0] === 0xfe && head[1] === 0xff ? 'utf-16be' : undefined;
    if (utf16) return readUtf16(file, utf16, window, limits);
    const bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
    if (head.subarray(0, limits.binarySniffBytes).includes(0)) {
      return failure(
        'binary_file',
        `${file.relative} looks binary (it has a NUL byte near the start). Use action 'open' for pdf/docx/pptx documents, ` +
          'or inspect it with a command such as `file` or `xxd | head` through the bash tool.',
      );
    }
    const origin = { path: file.path, relative: file.relative, size: file.size };
    const encoding = bom ? 'utf-8-bom' : 'utf-8';
    // Totals and the whole-file hash only where reading on past the window is cheap.
    const fullScan = file.size <= Math.min(limits.fullScanMaxBytes, limits.tailScanMaxBytes);
    // A small file read whole is windowed from its text decoded once; anything that path cannot answer the same way
    // (see loadedWindow) is streamed.
    const whole =
      file.bytes && fullScan && !signal?.aborted
        ? loadedWindow(file.bytes, bom, window.offset, window.limit, limits.maxLineChars, limits.maxOutputBytes)
        : undefined;
    const result =
      whole ??
      (await streamWindow(file.handle, {
        start: bom,
        size: file.size,
        offset: window.offset,
        limit: window.limit,
        maxLineChars: limits.maxLineChars,
        maxOutputBytes: limits.maxOutputBytes,
        chunkBytes: limits.chunkBytes,
        fullScan,
        head,
        ...(signal ? { signal } : {}),
      }));
    if ('aborted' in result && result.aborted) return failure('aborted', 'The read was cancelled.');
    const invalid = 'invalidUtf8At' in result ? result.invalidUtf8At : undefined;
    return textResponse(origin, result, {
      encoding,
      source: 'file',
      offset: window.offset,
      maxLineChars: limits.maxLineChars,
      ...(result.sha256 ? { sha256: result.sha256 } : {}),
      ...(invalid !== undefined
        ? {
            invalidUtf8At: invalid,
            warning: ` Warning: the file is not valid UTF-8 (first bad byte at offset ${invalid}); such bytes are shown as U+FFFD and the editor will refuse to modify this file.`,
          }
        : {}),
    });
  } catch (error) {
    return failure(
      'io_error',
      `Could not read ${file.relative} (${(error as { code?: string }).code ?? 'read error'}).`,
    );
  } finally {
    await file.handle?.close().catch(() => undefined);
  }
}

async function readUtf16(
  file: OpenedFile | LoadedFile,
  encoding: 'utf-16le' | 'utf-16be',
  window: Window,
  limits: ReaderLimits,
): Promise<ReaderResponse> {
  if (file.size > limits.fullScanMaxBytes) {
    return failure(
      'too_large',
      `${file.relative} is a ${file.size}-byte UTF-16 file, over the ${limits.fullScanMaxBytes}-byte limit for UTF-16.`,
    );
  }
  const bytes = await wholeFile(file);
  let text: string;
  let warning = '';
  try {
    text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder(encoding).decode(bytes);
    warning = ` Warning: the file is not valid ${encoding.toUpperCase()}; broken characters are shown as U+FFFD.`;
  }
  const result = textWindow(text, window.offset, window.limit, limits.maxLineChars, limits.maxOutputBytes);
  return textResponse({ path: file.path, relative: file.relative, size: file.size }, result, {
    encoding,
    source: 'file',
    offset: window.offset,
    maxLineChars: limits.maxLineChars,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    warning,
  });
}
