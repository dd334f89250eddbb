import { isAbsolute } from 'node:path';
import type { ReaderRequest, ReaderResponse, SingleReaderResponse } from '@bough/reader';
import type { ReadEvidence, ReadEvidenceOf } from './source-evidence.js';

/**
 * The evidence of one reader answer. Only file content counts: converted documents and remote pages are not the
 * bytes on disk. A digest is passed on when the reader computed one; the rows shown always are, so an edit of those
 * lines stays possible after something else changed other parts of the file.
 */
function singleRead(result: SingleReaderResponse): ReadEvidence[] {
  if (!result.success || !isAbsolute(result.path)) return [];
  if (result.type === 'text') {
    if (result.source !== 'file') return [];
    return [
      {
        path: result.path,
        ...(result.sha256 !== undefined ? { sha256: result.sha256 } : {}),
        rows: { content: result.content, start: result.start_line },
      },
    ];
  }
  return result.type === 'image' ? [{ path: result.path, sha256: result.sha256 }] : [];
}

/** What reader results show: each file read (one per path of a `read_many`), and the file a `read` opens. */
export const readerEvidence: ReadEvidenceOf<ReaderRequest, ReaderResponse> = Object.freeze({
  kind: 'read',
  reads: (result: ReaderResponse): readonly ReadEvidence[] => {
    if (result.success && result.type === 'many') return result.results.flatMap((item) => singleRead(item.result));
    return singleRead(result);
  },
  stampPath: (request: ReaderRequest): string | undefined => {
    if (request.action !== 'read' || typeof request.path !== 'string' || request.path === '') return undefined;
    return /^[a-z]+:\/\//i.test(request.path) ? undefined : request.path;
  },
});
