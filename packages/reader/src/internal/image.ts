/** Media types of the image extensions the reader returns inline. */
export const IMAGE_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  svg: 'image/svg+xml',
};

const starts = (bytes: Uint8Array, sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);

/** Whether the leading bytes fit the format the extension claims (SVG is text, so any leading text passes). */
export function looksLikeImage(ext: string, head: Uint8Array): boolean {
  switch (ext) {
    case 'png':
      return starts(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'jpg':
    case 'jpeg':
      return starts(head, [0xff, 0xd8, 0xff]);
    case 'gif':
      return starts(head, [0x47, 0x49, 0x46, 0x38]);
    case 'webp':
      return starts(head, [0x52, 0x49, 0x46, 0x46]) && starts(head, [0x57, 0x45, 0x42, 0x50], 8);
    case 'bmp':
      return starts(head, [0x42, 0x4d]);
    case 'svg':
      return !head.includes(0);
    default:
      return false;
  }
}
