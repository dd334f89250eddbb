// Incremental parser for ripgrep's `--null --with-filename --line-number --no-heading` output:
// every match is `PATH \0 LINE ':' TEXT '\n'`, or `PATH \0 LINE ':' OFFSET ':' TEXT '\n'` with `--byte-offset`.
// A line without a NUL is a notice ripgrep prints for a binary file.

/** One matching line as ripgrep reported it; `path` is relative to ripgrep's cwd. */
export interface RgMatch {
  readonly path: string;
  readonly line: number;
  /**
   * With `--byte-offset`: where the line starts in the bytes ripgrep searched. Those are the file's own bytes unless
   * ripgrep transcoded it (a file starting with a byte-order mark), so callers must check before relying on it.
   */
  readonly offset?: number;
  readonly text: string;
}

/**
 * What the parser hands back for each complete output line: a match, a notice, or (see
 * {@link RgLineParserOptions.textWanted}) a match record counted by its path alone.
 */
export type RgLine =
  | { kind: 'match'; match: RgMatch }
  | { kind: 'notice'; text: string }
  | { kind: 'counted'; path: string };

const NUL = 0;
const NEWLINE = 0x0a;
// A record is bounded by --max-columns plus a path; far more than this without a newline is not ripgrep output.
const MAX_PENDING_BYTES = 1024 * 1024;
// What ripgrep prints about a binary file that matched: "binary file matches (...)" when it hides the whole file
// (ripgrep 13-15), "WARNING: stopped searching binary file after match (...)" when a NUL shows up after a match
// that was already printed (ripgrep 15).
const BINARY_NOTICE =
  /: (?:binary file matches|WARNING: stopped searching binary file after match) \(found .* byte around offset \d+\)$/;

/** The path a binary-file notice is about (as ripgrep printed it), or undefined when the text is not such a notice. */
export function binaryNoticePath(text: string): string | undefined {
  const found = BINARY_NOTICE.exec(text);
  return found ? text.slice(0, found.index) : undefined;
}

/** Options of {@link RgLineParser}. */
export interface RgLineParserOptions {
  /** ripgrep runs with `--byte-offset`, so every match record carries the line's byte offset after its number. */
  readonly byteOffset?: boolean;
  /**
   * Asked with the path of each match record: false means the caller only counts the record, so its line number and
   * text are not decoded and it comes back as `counted` (a search keeping the first N matches in path order stops
   * decoding the lines of files that sort after all N).
   */
  readonly textWanted?: (path: string) => boolean;
}

/** Splits chunks of ripgrep output into matches without ever splitting a UTF-8 character or a record. */
export class RgLineParser {
  #pending: Buffer = Buffer.alloc(0);
  readonly #byteOffset: boolean;
  readonly #textWanted: ((path: string) => boolean) | undefined;
  // ripgrep prints a file's matches together, so most records repeat the previous record's path: its bytes are
  // compared and the string decoded once per file.
  #lastPathBytes: Buffer = Buffer.alloc(0);
  #lastPath = '';

  /** A parser for output with (`byteOffset: true`) or without byte offsets. */
  constructor(options: RgLineParserOptions = {}) {
    this.#byteOffset = options.byteOffset === true;
    this.#textWanted = options.textWanted;
  }

  /** Feeds one chunk; returns the complete lines it finished. */
  push(chunk: Buffer): RgLine[] {
    this.#pending = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    const lines: RgLine[] = [];
    let start = 0;
    for (;;) {
      const newline = this.#pending.indexOf(NEWLINE, start);
      if (newline < 0) break;
      const nul = this.#pending.indexOf(NUL, start);
      if (nul < 0 || nul > newline) {
        // Either a binary-file notice, or a file name that itself contains a newline (its NUL is still ahead).
        const text = this.#pending.subarray(start, newline).toString('utf8');
        if (BINARY_NOTICE.test(text)) {
          lines.push({ kind: 'notice', text });
          start = newline + 1;
          continue;
        }
        if (nul < 0) break;
        const end = this.#pending.indexOf(NEWLINE, nul);
        if (end < 0) break;
        lines.push(this.#record(this.#pending.subarray(start, end), nul - start));
        start = end + 1;
        continue;
      }
      lines.push(this.#record(this.#pending.subarray(start, newline), nul - start));
      start = newline + 1;
    }
    this.#pending = this.#pending.subarray(start);
    if (this.#pending.length > MAX_PENDING_BYTES) this.#pending = Buffer.alloc(0);
    return lines;
  }

  #record(bytes: Buffer, nul: number): RgLine {
    const pathBytes = bytes.subarray(0, nul);
    if (!pathBytes.equals(this.#lastPathBytes)) {
      this.#lastPathBytes = Buffer.from(pathBytes);
      this.#lastPath = pathBytes.toString('utf8');
    }
    // Only a well-formed record is counted unread; anything else is decoded as before (and becomes a notice).
    if (this.#textWanted && wellFormed(bytes, nul, this.#byteOffset) && !this.#textWanted(this.#lastPath)) {
      return { kind: 'counted', path: this.#lastPath };
    }
    return parseRecord(this.#lastPath, bytes, nul, this.#byteOffset);
  }
}

/** True when the bytes after the NUL start with a line number and ':' (and a byte offset and ':' with `byteOffset`). */
function wellFormed(bytes: Buffer, nul: number, byteOffset: boolean): boolean {
  let at = nul + 1;
  for (const _field of byteOffset ? [0, 1] : [0]) {
    const start = at;
    while (at < bytes.length && at - start <= 15 && (bytes[at] as number) >= 0x30 && (bytes[at] as number) <= 0x39)
      at++;
    if (at === start || at - start > 15 || bytes[at] !== 0x3a) return false;
    at++;
  }
  return true;
}

function parseRecord(path: string, bytes: Buffer, nul: number, byteOffset: boolean): RgLine {
  const rest = bytes.subarray(nul + 1).toString('utf8');
  const colon = rest.indexOf(':');
  const line = Number(rest.slice(0, colon));
  if (colon < 1 || !Number.isInteger(line)) return { kind: 'notice', text: rest };
  let textStart = colon + 1;
  let offset: number | undefined;
  if (byteOffset) {
    const second = rest.indexOf(':', textStart);
    const value = Number(rest.slice(textStart, second));
    if (second <= textStart || !Number.isSafeInteger(value) || value < 0) return { kind: 'notice', text: rest };
    offset = value;
    textStart = second + 1;
  }
  const text = rest.slice(textStart).replace(/\r$/, '');
  return { kind: 'match', match: offset === undefined ? { path, line, text } : { path, line, offset, text } };
}
