import type { PatchHunk } from './patch-parse.js';

/**
 * A file that is not text in an encoding the editor decodes (Latin-1, Windows-1252, Shift-JIS...) is patched the way
 * `git apply` patches any file: on its bytes. Its bytes are taken one character per byte (latin1, which maps every
 * byte to the character of the same number and back without loss), and so are the UTF-8 bytes of the patch's lines;
 * a hunk then matches only where the file holds exactly the bytes the patch carries, and every byte the hunks do not
 * replace is written back as it was.
 */

/** A UTF-16 file with a BOM that does not decode is broken, not in another encoding: it is never patched on bytes. */
export function patchableAsBytes(bytes: Uint8Array): boolean {
  return !((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
}

/** The file's bytes, one character per byte, and the UTF-8 BOM kept aside when it starts with one. */
export function bytesAsText(bytes: Buffer): { bom: Buffer; text: string } {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return { bom: bytes.subarray(0, bom), text: bytes.toString('latin1', bom) };
}

/** Back to bytes: the inverse of {@link bytesAsText} for text built from its characters. */
export function textAsBytes(bom: Buffer, text: string): Buffer {
  return Buffer.concat([bom, Buffer.from(text, 'latin1')]);
}

const asBytes = (line: string) => Buffer.from(line, 'utf8').toString('latin1');

/** The hunks with every line (and `@@` context) as its UTF-8 bytes, one character per byte. */
export function hunksAsBytes(hunks: readonly PatchHunk[]): PatchHunk[] {
  return hunks.map((hunk) => ({
    ...hunk,
    oldLines: hunk.oldLines.map(asBytes),
    newLines: hunk.newLines.map(asBytes),
    ...(hunk.context !== undefined ? { context: asBytes(hunk.context) } : {}),
  }));
}

/** Text built by {@link bytesAsText} shown to a reader: its bytes read as UTF-8, undecodable ones as U+FFFD. */
export function bytesForDisplay(text: string): string {
  return Buffer.from(text, 'latin1').toString('utf8');
}

/**
 * The permission bits a git mode line asks for, from the file's current ones: 100755 adds execute wherever read is
 * allowed (0644 becomes 0755), 100644 takes every execute bit away; no mode line keeps the mode as it is.
 */
export function modeFor(current: number, executable: boolean | undefined): number {
  const bits = current & 0o7777;
  if (executable === undefined) return bits;
  return executable ? bits | ((bits & 0o444) >> 2) : bits & ~0o111;
}
