/**
 * `@bough/workspace/internal`: helpers the sibling `@bough/*` packages share (line counting, UTF-8 checks, globs,
 * skip counters, held parent directories, path tests, the line diff and the work meter that paces it). NOT public API: they change with the packages that use them,
 * in any release, without a major version — semver covers only the main entry `@bough/workspace`. Programs outside
 * this monorepo should not import this entry. (Shared internals kept out of the public surface, as the MCP
 * TypeScript SDK does with its own.)
 *
 * @packageDocumentation
 */

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
/** Parent directories gated once and held, for tools that open or look up many files in one call. */
export { HeldParents, type ParentLookup } from './held-parents.js';
/** Whether an absolute path is a root or below it, by name alone. */
export { isInside } from './inside.js';
/** Largest file a transaction writes (and an editor reads) with synchronous calls. */
export { SYNC_FILE_BYTES } from './internal/small-file-steps.js';
/** The project's one line diff: changes between two texts as ranges, and as a unified diff under a file header. */
export { type FileDiff, fileDiff, type LineChanges, lineChanges, pacedLineChanges, withHeader } from './line-diff.js';
/** Line offsets in a text: line numbers of offsets, line starts and ends, moving whole lines up and down. */
export {
  countLines,
  LineCounter,
  lineEndAfter,
  lineStart,
  linesBack,
  linesForward,
  splitLines,
} from './lines.js';
/** Where a path leads through the links on its way, by the gate's own walk (for checks made before a tool runs). */
export { linkedPathSync, rootRelative } from './linked-path.js';
/** Line-feed counting at memory speed over a reusable scratch buffer (SIMD WebAssembly, indexOf fallback). */
export {
  type CountingBuffer,
  type CountingBufferOptions,
  countingBuffer,
  countLineFeedsIn,
} from './newline-count.js';
/** Per-reason counters of files a tool left out, shared by every tool that walks the workspace. */
export { addWalkSkips, emptySkipCounts, type SkipCounts, skipReasonOf } from './skip-counts.js';
/** Whole-text diffs for people and patches (`@bough/editor` re-exports both as public API). */
export { type ChangedLines, changedLines, unifiedTextDiff } from './text-diff.js';
/** Pacing of synchronous work split into pieces: back to the event loop every few milliseconds. */
export { Turns } from './turns.js';
/** A unified diff body of changes given as character ranges, cut at line and width limits. */
export { type Change, type DiffLimits, unifiedDiff } from './unified-diff.js';
/** Where bytes stop being UTF-8, shared by the tools that report undecodable files. */
export { firstInvalidUtf8 } from './utf8.js';
/** Budgeted, paced searches: a work meter, and drivers that run a paced generator with or without going back to the event loop. */
export { type Driven, drive, finish, type Paced, TURN_MS, WorkMeter } from './work-meter.js';
