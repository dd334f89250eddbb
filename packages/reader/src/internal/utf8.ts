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
