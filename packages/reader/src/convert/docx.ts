import { ZipArchive, type ZipLimits } from '../internal/zip.js';
import { htmlToText } from './html.js';

/** Markdown of a docx: the archive is first proven within the decompression caps, then mammoth converts it. */
export async function docxToText(bytes: Buffer, limits: ZipLimits): Promise<string> {
  const zip = new ZipArchive(bytes, limits);
  zip.verifyAll();
  if (!zip.entries.has('word/document.xml'))
    throw new Error('the archive has no word/document.xml, so it is not a docx');
  const mammoth = (await import('mammoth')).default;
  const result = await mammoth.convertToHtml(
    { buffer: bytes },
    {
      externalFileAccess: false,
      convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
    },
  );
  return htmlToText(result.value.replace(/<img\b[^>]*>/g, '[image]'));
}
