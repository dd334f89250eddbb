import { ZipArchive, type ZipLimits } from '../internal/zip.js';

/** Proves a docx stays within the decompression caps and has a main part, before any converter sees it. */
export function checkDocx(bytes: Buffer, limits: ZipLimits): void {
  const zip = new ZipArchive(bytes, limits);
  zip.verifyAll();
  if (!zip.entries.has('word/document.xml')) {
    throw new Error('the archive has no word/document.xml, so it is not a docx');
  }
}
