/** Offset of the first byte that breaks UTF-8, or -1 when the bytes are valid. */
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

/** Length of the longest prefix that does not end inside a multi-byte character. */
export function completePrefixLength(bytes: Uint8Array, length: number): number {
  let end = Math.min(length, bytes.length);
  let back = 0;
  while (end - back > 0 && back < 3 && (bytes[end - 1 - back]! & 0xc0) === 0x80) back++;
  const lead = bytes[end - 1 - back];
  if (lead === undefined || lead < 0xc0) return end;
  const size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
  if (back + 1 < size) end -= back + 1;
  return end;
}

/** Number of characters (code points) starting in the bytes, counting every non-continuation byte. */
export function countCodePoints(bytes: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) if ((bytes[i]! & 0xc0) !== 0x80) n++;
  return n;
}
