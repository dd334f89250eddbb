import { firstInvalidUtf8 } from '@bough/workspace/internal';

/** Encodings the editor can round-trip byte for byte. */
export type TextEncodingName = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be';

/** A file's bytes decoded strictly, with what is needed to write replacement text back in the same form. */
export interface DecodedText {
  readonly encoding: TextEncodingName;
  /** Length of the byte-order mark at the start of the file (0 when there is none). */
  readonly bomBytes: number;
  /** The text after the BOM. */
  readonly text: string;
}

/** Why a file could not be decoded without loss. */
export interface UndecodableText {
  readonly encoding: null;
  /** Byte offset (from the start of the file) of the first byte that is not valid in the detected encoding. */
  readonly badByteOffset: number;
  readonly reason: string;
}

/** Detects the BOM-declared encoding (UTF-8 otherwise) and decodes strictly; never substitutes U+FFFD. */
export function decodeText(bytes: Uint8Array): DecodedText | UndecodableText {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return utf8(bytes, 3, 'utf-8-bom');
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return utf16(bytes, 'utf-16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return utf16(bytes, 'utf-16be');
  return utf8(bytes, 0, 'utf-8');
}

function utf8(bytes: Uint8Array, start: number, encoding: TextEncodingName): DecodedText | UndecodableText {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(start));
    return { encoding, bomBytes: start, text };
  } catch {
    return { encoding: null, badByteOffset: start + invalidAt(bytes.subarray(start)), reason: 'invalid UTF-8' };
  }
}

function utf16(bytes: Uint8Array, encoding: 'utf-16le' | 'utf-16be'): DecodedText | UndecodableText {
  const body = bytes.subarray(2);
  if (body.length % 2 !== 0) {
    return { encoding: null, badByteOffset: bytes.length - 1, reason: `odd byte count for ${encoding}` };
  }
  const units = new Uint16Array(body.length / 2);
  for (let i = 0; i < units.length; i++) {
    const a = body[2 * i]!;
    const b = body[2 * i + 1]!;
    units[i] = encoding === 'utf-16le' ? a | (b << 8) : (a << 8) | b;
  }
  const text = decodeUnits(units);
  const lone = firstLoneSurrogate(text);
  if (lone >= 0) return { encoding: null, badByteOffset: 2 + lone * 2, reason: `unpaired surrogate in ${encoding}` };
  return { encoding, bomBytes: 2, text };
}

function decodeUnits(units: Uint16Array): string {
  const parts: string[] = [];
  for (let i = 0; i < units.length; i += 8192) parts.push(String.fromCharCode(...units.subarray(i, i + 8192)));
  return parts.join('');
}

/** Index of the first unpaired UTF-16 surrogate in a string, or -1 when the string is well formed. */
export function firstLoneSurrogate(text: string): number {
  const match = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(text);
  return match ? match.index : -1;
}

/** Encodes text in the given encoding (without a BOM); the caller checked it is well formed. */
export function encodeText(text: string, encoding: TextEncodingName): Buffer {
  if (encoding === 'utf-8' || encoding === 'utf-8-bom') return Buffer.from(text, 'utf8');
  const out = Buffer.from(text, 'utf16le');
  if (encoding === 'utf-16be') out.swap16();
  return out;
}

/** The byte-order mark written at the start of a file in the given encoding. */
export function bomFor(encoding: TextEncodingName): Buffer {
  if (encoding === 'utf-8-bom') return Buffer.from([0xef, 0xbb, 0xbf]);
  if (encoding === 'utf-16le') return Buffer.from([0xff, 0xfe]);
  if (encoding === 'utf-16be') return Buffer.from([0xfe, 0xff]);
  return Buffer.alloc(0);
}

/** Byte length of a piece of text in the given encoding. */
export function encodedLength(text: string, encoding: TextEncodingName): number {
  return encoding === 'utf-16le' || encoding === 'utf-16be' ? text.length * 2 : Buffer.byteLength(text, 'utf8');
}

/** Where the decoder's refusal lies; a refusal with no bad byte found is placed at the end of the bytes. */
function invalidAt(bytes: Uint8Array): number {
  const at = firstInvalidUtf8(bytes);
  return at < 0 ? bytes.length : at;
}
