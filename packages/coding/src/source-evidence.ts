import type { Touches } from '@bough/core';

/**
 * What a composed tool's calls tell the read-before-edit guard. Each source brings its own extractor, typed against
 * its tool's request and response, so the toolkit's wrapper never looks inside a tool's result itself.
 */

/** One file a successful read showed: its real absolute path, its digest when the tool computed one, the rows shown. */
export interface ReadEvidence {
  readonly path: string;
  readonly sha256?: string;
  /** The rows shown ("<line number>\t<text>" joined by newlines), the first of them being line `start`. */
  readonly rows?: { readonly content: string; readonly start: number };
}

/** A file a change would touch, and the change as the guard weighs it (an editor-shaped request). */
export interface GuardTarget {
  readonly path: unknown;
  readonly change: unknown;
}

/** Lines of new content the model wrote itself: `all` of them, or ranges (1-based, inclusive). */
export type WrittenLines = 'all' | readonly { readonly start: number; readonly end: number }[];

/** What a successful change did to one file, as the file state must learn it. */
export type WriteEffect =
  /** Renamed: the evidence moves along (both paths real and absolute). */
  | { readonly op: 'move'; readonly from: string; readonly to: string }
  /** Gone (deleted, or moved away by a patch): its evidence is dropped. */
  | { readonly op: 'drop'; readonly path: string }
  /**
   * Written: `sha256` is what the tool reported writing (when it did); `lines` what the model wrote; `newText` the
   * texts to look for when `lines` names no range (a tool that does not say where its new text went).
   */
  | {
      readonly op: 'wrote';
      readonly path: string;
      readonly sha256?: string;
      readonly lines: WrittenLines;
      readonly newText?: readonly string[];
    };

/** Results of this source show file content: they feed the file state. */
export interface ReadEvidenceOf<Request, Response> {
  readonly kind: 'read';
  /** Every file a result shows (none for a failure or for content that is not the bytes on disk). */
  reads(result: Response): readonly ReadEvidence[];
  /**
   * For a request that reads one local file: its path as given (resolved against the root), so a big file's stamp
   * can be taken before the read and confirmed after it.
   */
  stampPath?(request: Request): string | undefined;
}

/** Requests of this source change files: the guard checks them first and their results are recorded. */
export interface WriteEvidenceOf<Request, Response> {
  readonly kind: 'write';
  /**
   * The existing files the request would change, each with the change the guard checks it against. `touches` is
   * what the request touches when the caller already has it (`tool.touches(request)`), so it is not worked out again.
   */
  targets(request: Request, touches?: Touches): readonly GuardTarget[];
  /** The files whose diagnostics to compare before and after the change (as given; none for a dry run). */
  checkedPaths(request: Request, touches?: Touches): readonly string[];
  /** What a result did to each file; `root` is the workspace root relative paths in the result are under. */
  effects(request: Request, result: Response, root: string): readonly WriteEffect[];
}

/** Neither reads nor writes files as the guard sees them. */
export interface NoEvidence {
  readonly kind: 'none';
}

/** What evidence a source's calls carry. */
export type SourceEvidence<Request = unknown, Response = unknown> =
  | ReadEvidenceOf<Request, Response>
  | WriteEvidenceOf<Request, Response>
  | NoEvidence;

/** The evidence of a source whose calls neither read nor change files. */
export const NO_EVIDENCE: NoEvidence = Object.freeze({ kind: 'none' });
