/** Stable refusal codes and the failure value shape shared by every path-taking tool. */
export type { WorkspaceErrorCode, WorkspaceFailure } from './errors.js';
/** Narrowing helper for workspace results, and the list of stable refusal codes. */
export { isWorkspaceFailure, WORKSPACE_ERROR_CODES } from './errors.js';
/** The extension rule the tools pick a language by. */
export { extensionOf } from './extension.js';
/** File stamps: telling an unchanged file from a changed one with one `stat`, and re-reading a file the gate allowed. */
export {
  FILE_STAMP_SETTLE_MS,
  type FileStamp,
  fileStamp,
  rereadAllowedFile,
  stampOfStats,
  stampParts,
  stampSettled,
} from './file-stamp.js';
/** Path globs as regular expressions (ruff per-file rules, protected-name patterns). */
export { globToRegExp } from './glob.js';
/** A directory held open by descriptor and proven to be the one asked for ({@link Workspace.holdDirSync}). */
export type { HeldDir, HeldFile } from './held-dir.js';
/** Parent directories gated once and held, for tools that open or look up many files in one call. */
export { HeldParents, type ParentLookup } from './held-parents.js';
export { isInside } from './inside.js';
/** Largest file a transaction writes (and an editor reads) with synchronous calls. */
export { SYNC_FILE_BYTES } from './internal/small-file-steps.js';
/** Limits and their defaults. */
export { DEFAULT_WORKSPACE_LIMITS, type WorkspaceLimits } from './limits.js';
/** A path as the gate names it, and where it leads through the links on its way (for checks made before a tool runs). */
export { linkedPathSync, rootRelative } from './linked-path.js';
/** One directory's listing in one answer. */
export type { DirectoryListing, ListDirectoryOptions } from './list-directory.js';
/** Options and result of a move. */
export type { MovedPath, MoveOptions } from './move.js';
/** Line-feed counting at memory speed over a reusable scratch buffer (SIMD WebAssembly, indexOf fallback). */
export {
  type CountingBuffer,
  type CountingBufferOptions,
  countingBuffer,
  countLineFeedsIn,
} from './newline-count.js';
/** Results of opening a file for reading: open for further reads, or read whole at once when small. */
export type { LoadedFile, OpenedFile, OpenOrLoadOptions, OpenReadOptions } from './open-read.js';
/** Credential-name policy. */
export { DEFAULT_PROTECTED, isProtectedName, type ProtectedNamePolicy } from './protected-names.js';
/** Whole-file UTF-8 reads through the gate, shared by the tools that need file text. */
export { type ReadTextOptions, readWorkspaceText, type WorkspaceText } from './read-text.js';
/** The piecewise writer handed to a `replaceFile` filler. */
export type { FillReplacement, ReplacementSink } from './replacement.js';
/** Path intents and resolved path shape. */
export type { LinkRule, PathIntent, ResolvedPath } from './resolved-path.js';
/** Per-reason counters of files a tool left out, shared by every tool that walks the workspace. */
export { addWalkSkips, emptySkipCounts, type SkipCounts, skipReasonOf } from './skip-counts.js';
/** Changes, steps and failures of an all-or-nothing multi-file transaction. */
export type { ChangeStep, FileChange, TransactionFailure } from './transaction.js';
/** Pacing of synchronous work split into pieces: back to the event loop every few milliseconds. */
export { Turns } from './turns.js';
/** Where bytes stop being UTF-8, shared by the tools that report undecodable files. */
export { firstInvalidUtf8 } from './utf8.js';
/** Directory walking. */
export { type WalkEntry, type WalkOptions, type WalkSummary, WorkspaceError } from './walk.js';
/** The workspace gate itself. */
export { resolveInWorkspace, Workspace, type WorkspaceOptions } from './workspace.js';
/** Results and options of writes. */
export type { ReplacedFile, ReplaceFileOptions, WriteFileOptions, WrittenFile } from './write-file.js';
