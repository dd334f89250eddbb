import type { ReaderTextResult } from '../schema.js';
import { windowNotice } from './notice.js';
import type { WindowResult } from './row-builder.js';

/** Where the shown text came from: a file on disk, a converted document or a fetched page. */
export interface TextOrigin {
  path: string;
  relative: string;
  size: number;
}

/** What differs between the text responses of `read` (UTF-8 or UTF-16) and `open`. */
export interface TextResponseParts {
  encoding: string;
  source: ReaderTextResult['source'];
  /** The 0-based offset the caller asked for, for the notice. */
  offset: number;
  maxLineChars: number;
  sha256?: string;
  cached?: boolean;
  invalidUtf8At?: number;
  /** Put before the window notice (e.g. what a document was converted from). */
  lead?: string;
  /** Put after the window notice (e.g. an encoding warning). */
  warning?: string;
}

/** The one builder of a successful text response: numbered rows, the range shown, how to continue, provenance. */
export function textResponse(
  origin: TextOrigin,
  window: WindowResult & { totalLines?: number },
  parts: TextResponseParts,
): ReaderTextResult {
  const notice = windowNotice(window, parts.offset, window.totalLines, parts.maxLineChars);
  return {
    success: true,
    type: 'text',
    path: origin.path,
    relative: origin.relative,
    content: window.rows.join('\n'),
    start_line: window.startLine,
    end_line: window.endLine,
    ...(window.totalLines !== undefined ? { total_lines: window.totalLines } : {}),
    ...(window.nextOffset !== undefined ? { next_offset: window.nextOffset } : {}),
    size_bytes: origin.size,
    ...(parts.sha256 !== undefined ? { sha256: parts.sha256 } : {}),
    encoding: parts.encoding,
    source: parts.source,
    ...(parts.cached !== undefined ? { cached: parts.cached } : {}),
    ...(parts.invalidUtf8At !== undefined ? { invalid_utf8_offset: parts.invalidUtf8At } : {}),
    notice: `${parts.lead ?? ''}${notice}${parts.warning ?? ''}`,
  };
}
