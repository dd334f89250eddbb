/**
 * Offset of the first byte that breaks UTF-8 (a bad lead byte, a missing or stray continuation byte, an overlong
 * form, a surrogate or a code point past U+10FFFF), or -1 when all of the bytes are valid. Shared by the reader and
 * the editor, which both tell a model exactly where a file stops being text.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const need = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0 || i + need >= bytes.length) return i;
    for (let k = 1; k <= need; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    const second = bytes[i + 1]!;
    if (need === 2 && ((b === 0xe0 && second < 0xa0) || (b === 0xed && second > 0x9f))) return i;
    if (need === 3 && ((b === 0xf0 && second < 0x90) || (b === 0xf4 && second > 0x8f))) return i;
    i += need + 1;
  }
  return -1;
}
