import type { CheckpointsFailure } from './errors.js';
import type { SkippedPath } from './internal/exclusions.js';

export type { SkippedPath, SkipReason } from './internal/exclusions.js';

/** Who and what a snapshot is attributed to. */
export interface SnapshotOptions {
  readonly branch?: string;
  readonly callId?: string;
  readonly tool?: string;
  /** The tool request that made the changes (kept as JSON text, cut to `maxRequestChars`). */
  readonly request?: unknown;
  readonly label?: string;
  /** `before`: changes found before a call (not made by it); `after`: changes made by the call. */
  readonly phase?: 'before' | 'after';
}

/** A snapshot taken: the newest checkpoint (the previous one when nothing changed) and what changed. */
export type SnapshotResult =
  | {
      readonly success: true;
      readonly id: string;
      /** Whether a new checkpoint was written (false when nothing changed). */
      readonly created: boolean;
      /** Changed paths, at most `filesPerEntry`; `changed_count` counts them all. */
      readonly changed_files: string[];
      readonly changed_count: number;
      /** Paths left out of the store this time, with the reason. */
      readonly skipped: SkippedPath[];
    }
  | CheckpointsFailure;

/** Which checkpoints to list. */
export interface ListOptions {
  /** Most checkpoints, newest first (default `listDefault`, at most `listMax`). */
  readonly limit?: number;
  /** Only checkpoints of this branch. */
  readonly branch?: string;
}

/** One checkpoint in a list. */
export interface CheckpointSummary {
  readonly id: string;
  /** The checkpoint before this one: restore to it to undo this one. Null for the first. */
  readonly before: string | null;
  readonly time: string;
  /** `after`: changes made by the named call; `before`: changes found before a call (made by someone else);
   * `restore`: a restore; `snapshot`: a plain snapshot. */
  readonly kind: 'after' | 'before' | 'restore' | 'snapshot';
  readonly branch?: string;
  readonly call_id?: string;
  readonly tool?: string;
  readonly request?: string;
  readonly label?: string;
  /** For a restore: the checkpoint it brought back. */
  readonly restored_to?: string;
  readonly files_changed: number;
  readonly files: string[];
}

/** The newest checkpoints, newest first. */
export interface CheckpointList {
  readonly success: true;
  readonly checkpoints: CheckpointSummary[];
}

/** What to compare: one checkpoint against the one before it, or a range. */
export interface DiffOptions {
  readonly from: string;
  /** When given, the diff runs from `from` to `to`; otherwise it shows what `from` itself changed. */
  readonly to?: string;
  readonly paths?: readonly string[];
}

/** A unified diff between two checkpoints. */
export interface DiffResult {
  readonly success: true;
  readonly from: string;
  readonly to: string;
  readonly diff: string;
  readonly truncated: boolean;
}

/** What to restore. */
export interface RestoreOptions {
  /** The checkpoint to bring back (to undo a call, its entry's `before`). */
  readonly to: string;
  /** Only these files or folders (relative to the workspace); default everything. */
  readonly paths?: readonly string[];
  /** Overwrite changes made after the newest checkpoint by someone else (they stay in the history). */
  readonly force?: boolean;
  readonly branch?: string;
  readonly callId?: string;
}

/** A restore done: its own checkpoint (undo it by restoring to `before`) and the files it changed. */
export interface RestoreResult {
  readonly success: true;
  /** The checkpoint written after the restore. */
  readonly id: string;
  /** The checkpoint of the state just before the restore: restore to it to undo the restore. */
  readonly before: string;
  readonly restored_to: string;
  readonly changed_files: string[];
  readonly changed_count: number;
  /** Paths the restore left alone (not stored, links, protected), with the reason. */
  readonly skipped: SkippedPath[];
  /** With `force`: paths whose unrecorded changes were overwritten (still in the history at `before`). */
  readonly overwritten: string[];
}
