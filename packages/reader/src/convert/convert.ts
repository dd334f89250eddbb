import type { ReaderLimits } from '../limits.js';
import { checkDocx } from './docx.js';
import { convertIsolated } from './isolated.js';
import { pptxToText } from './pptx.js';

/** Document kinds `open` converts. */
export type DocumentKind = 'pdf' | 'docx' | 'pptx' | 'html';

/** The document kind of an extension, if `open` supports it. */
export function kindOfExtension(ext: string): DocumentKind | undefined {
  if (ext === 'pdf' || ext === 'docx' || ext === 'pptx' || ext === 'html') return ext;
  if (ext === 'htm') return 'html';
  return undefined;
}

/**
 * Converts document bytes to text. Zip containers are first proven within the decompression caps here; pptx text is
 * then pulled out by a linear scan in this thread, while pdf, docx and html go to third-party converters in a worker
 * that is terminated at the time or memory limit.
 */
export async function convertDocument(
  kind: DocumentKind,
  bytes: Buffer,
  limits: ReaderLimits,
  signal?: AbortSignal,
): Promise<string> {
  const zipLimits = {
    maxEntries: limits.maxZipEntries,
    maxEntryBytes: limits.maxZipEntryBytes,
    maxTotalBytes: limits.maxZipTotalBytes,
  };
  if (kind === 'pptx') return pptxToText(bytes, zipLimits);
  if (kind === 'docx') checkDocx(bytes, zipLimits);
  return convertIsolated(kind, bytes, {
    timeoutMs: limits.conversionTimeoutMs,
    memoryMb: limits.conversionMemoryMb,
    maxChars: limits.maxConvertedChars,
    ...(signal ? { signal } : {}),
  });
}
