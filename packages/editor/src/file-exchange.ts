import type { OpenedFile } from '@bough/workspace';

/** A file a caller read whole through the workspace gate during the current call, offered to the editor. */
export interface KnownFile {
  /** What the open reported (real path, relative path, size, mode, mtime). */
  readonly file: Omit<OpenedFile, 'handle'>;
  /** Every byte of the file as read (`file.size` of them). */
  readonly bytes: Buffer;
}

/**
 * What a caller that reads and records files around the editor (the coding toolkit's read-before-edit guard) can share
 * with it, call by call, so neither reads the same file twice. `known` offers the file the caller has just read under
 * the name the request gives (`file_path`): the editor edits those bytes instead of reading them again, and still
 * re-opens the file just before writing and compares it byte for byte, so a change made in between is refused as
 * `file_changed` exactly as before. Only files of at most `verifyBytesMax` bytes are taken (bigger ones are re-checked by
 * size and time only, so for them the editor reads for itself). `wrote` is told the bytes each successful write put
 * in place, so the caller can record them without reading the file back.
 */
export interface EditorFileExchange {
  known?(callId: string, filePath: string): KnownFile | undefined;
  wrote?(callId: string, path: string, bytes: Buffer): void;
}
