/**
 * `@bough/workspace`: the path gate and safe file primitives (the public, semver-covered API). Helpers only the
 * sibling `@bough/*` packages use live behind `@bough/workspace/internal` (see shared-internals.ts), not here.
 */

/** Stable refusal codes and the failure value shape shared by every path-taking tool. */
export type { WorkspaceErrorCode, WorkspaceFailure } from './errors.js';
/** Narrowing helper for workspace results, and the list of stable refusal codes. */
export { isWorkspaceFailure, WORKSPACE_ERROR_CODES } from './errors.js';
/** A directory held open by descriptor and proven to be the one asked for ({@link Workspace.holdDirSync}). */
export type { HeldDir, HeldFile } from './held-dir.js';
/** Limits and their defaults. */
export { DEFAULT_WORKSPACE_LIMITS, type WorkspaceLimits } from './limits.js';
/** One directory's listing in one answer. */
export type { DirectoryListing, ListDirectoryOptions } from './list-directory.js';
/** Options and result of a move. */
export type { MovedPath, MoveOptions } from './move.js';
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
/** Changes, steps and failures of an all-or-nothing multi-file transaction. */
export type { ChangeStep, FileChange, TransactionFailure } from './transaction.js';
/** Directory walking. */
export { type WalkEntry, type WalkOptions, type WalkSummary, WorkspaceError } from './walk.js';
/** The workspace gate itself. */
export { resolveInWorkspace, Workspace, type WorkspaceOptions } from './workspace.js';
/** Results and options of writes. */
export type { ReplacedFile, ReplaceFileOptions, WriteFileOptions, WrittenFile } from './write-file.js';
