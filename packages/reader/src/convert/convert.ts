import type { ReaderLimits } from '../limits.js';
import { docxToText } from './docx.js';
import { htmlToText } from './html.js';
import { pdfToText } from './pdf.js';
import { pptxToText } from './pptx.js';

/** Document kinds `open` converts. */
export type DocumentKind = 'pdf' | 'docx' | 'pptx' | 'html';

/** The document kind of an extension, if `open` supports it. */
export function kindOfExtension(ext: string): DocumentKind | undefined {
  if (ext === 'pdf' || ext === 'docx' || ext === 'pptx' || ext === 'html') return ext;
  if (ext === 'htm') return 'html';
  return undefined;
}

/** Converts document bytes to text, bounded by the zip caps and the conversion time limit. */
export async function convertDocument(kind: DocumentKind, bytes: Buffer, limits: ReaderLimits): Promise<string> {
  const zipLimits = {
    maxEntries: limits.maxZipEntries,
    maxEntryBytes: limits.maxZipEntryBytes,
    maxTotalBytes: limits.maxZipTotalBytes,
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ConversionTimeout(`Conversion took longer than ${limits.conversionTimeoutMs} ms and was abandoned.`),
        ),
      limits.conversionTimeoutMs,
    );
  });
  const work = async (): Promise<string> => {
    switch (kind) {
      case 'pdf':
        return pdfToText(bytes);
      case 'docx':
        return docxToText(bytes, zipLimits);
      case 'pptx':
        return pptxToText(bytes, zipLimits);
      default:
        return htmlToText(bytes.toString('utf8'));
    }
  };
  try {
    return await Promise.race([work(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Raised when a conversion exceeds its time budget. */
export class ConversionTimeout extends Error {
  override readonly name = 'ConversionTimeout';
}
