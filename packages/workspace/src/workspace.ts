import { realpathSync, statSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { normalize, resolve as resolvePath } from 'node:path';
import { ConfigurationError } from '@bough/core';
import type { WorkspaceFailure } from './errors.js';
import { type HeldDir, holdDirIn } from './held-dir.js';
import { applyIntent } from './internal/intent.js';
import { components, posixRelative } from './internal/paths.js';
import { type ResolverContext, resolveDetail } from './internal/resolver.js';
import { resolveLimits, type WorkspaceLimits } from './limits.js';
import { type DirectoryListing, type ListDirectoryOptions, listDirectoryIn } from './list-directory.js';
import { type MovedPath, type MoveOptions, moveIn } from './move.js';
import {
  type LoadedFile,
  type OpenedFile,
  type OpenOrLoadOptions,
  type OpenReadOptions,
  openOrLoadIn,
  openReadIn,
} from './open-read.js';
import { DEFAULT_PROTECTED, isProtectedName, type ProtectedNamePolicy } from './protected-names.js';
import type { FillReplacement } from './replacement.js';
import type { LinkRule, PathIntent, ResolvedPath } from './resolved-path.js';
import { applyChangesIn, type FileChange, type TransactionFailure } from './transaction.js';
import { type WalkEntry, type WalkOptions, type WalkSummary, walkIn } from './walk.js';
import {
  mkdirIn,
  type ReplacedFile,
  type ReplaceFileOptions,
  replaceFileIn,
  type WriteFileOptions,
  type WrittenFile,
  writeFileIn,
} from './write-file.js';

/** Settings for a workspace; every field has a safe default. */
export interface WorkspaceOptions {
  /** Credential names refused for reads, writes and listings (default {@link DEFAULT_PROTECTED}). */
  protectedNames?: ProtectedNamePolicy;
  /** Overrides for {@link DEFAULT_WORKSPACE_LIMITS}. */
  limits?: Partial<WorkspaceLimits>;
  /**
   * Flush new content to the disk (fsync) before a write, a replacement or a change set puts it in place. Default
   * false. Either way a reader sees the old file or the new one, never a mix, and a failed write leaves the old file
   * as it was (temp file beside it, then rename); what this adds is that the new content survives a power cut or a
   * kernel crash right after the call returned, at the price of a disk flush (milliseconds) per write.
   */
  durable?: boolean;
  /**
   * Where a symbolic link on a request's way may lead: the gate follows links inside the root as before, and asks
   * this rule about the real path it reached; a reason refuses the request with `denied` (the code a permission
   * policy refuses with). For a permission policy whose path rules must bind real paths: the gate's own walk finds
   * the link, so nothing walks the path twice.
   */
  linkRule?: LinkRule;
}

function badRoot(root: string, why: string): ConfigurationError {
  return new ConfigurationError(`Workspace root ${JSON.stringify(root)} ${why}`, { code: 'invalid_workspace_root' });
}

/** The single gate every path-taking tool goes through: containment, symlink policy, protected names, safe I/O. */
export class Workspace {
  /** Real path of the root, resolved once so later checks compare real paths with real paths. */
  readonly root: string;
  /** The limits in force, after merging overrides. */
  readonly limits: WorkspaceLimits;
  readonly #ctx: ResolverContext;
  /** Whether writes fsync before they put new content in place ({@link WorkspaceOptions.durable}). */
  get durable(): boolean {
    return this.#ctx.durable === true;
  }

  private constructor(root: string, options: WorkspaceOptions) {
    this.root = root;
    this.limits = resolveLimits(options.limits);
    this.#ctx = Object.freeze({
      root,
      policy: options.protectedNames ?? DEFAULT_PROTECTED,
      limits: this.limits,
      durable: options.durable === true,
      ...(options.linkRule ? { linkRule: options.linkRule } : {}),
    });
  }

  /** Opens a workspace; throws only when the root itself is unusable, which is a set-up mistake, not model input. */
  static async open(root: string, options: WorkspaceOptions = {}): Promise<Workspace> {
    if (typeof root !== 'string' || root === '' || root.includes('\0')) throw badRoot(String(root), 'is not a path');
    let real: string;
    try {
      real = await realpath(resolvePath(root));
    } catch {
      throw badRoot(root, 'does not exist');
    }
    if (!(await stat(real)).isDirectory()) throw badRoot(root, 'is not a directory');
    return new Workspace(real, options);
  }

  /** Synchronous twin of {@link Workspace.open} for constructors and factories that cannot await. */
  static openSync(root: string, options: WorkspaceOptions = {}): Workspace {
    if (typeof root !== 'string' || root === '' || root.includes('\0')) throw badRoot(String(root), 'is not a path');
    let real: string;
    try {
      real = realpathSync(resolvePath(root));
    } catch {
      throw badRoot(root, 'does not exist');
    }
    if (!statSync(real).isDirectory()) throw badRoot(root, 'is not a directory');
    return new Workspace(real, options);
  }

  /** Checks a model-supplied path for an intent; relative paths are taken from the root. */
  async resolve(path: string, intent: PathIntent): Promise<ResolvedPath | WorkspaceFailure> {
    const detail = await resolveDetail(this.#ctx, path, intent);
    if (!detail.success) return detail;
    const fit = applyIntent(detail, path, intent);
    if (!fit.success) return fit;
    return { success: true, path: fit.path, relative: fit.relative, exists: fit.exists, kind: fit.kind };
  }

  /** Posix path relative to the root for display ('.' for the root itself). */
  relative(absolutePath: string): string {
    return posixRelative(this.root, resolvePath(this.root, absolutePath));
  }

  /** True when any component of the path (or the bare name) is protected under this workspace's policy. */
  isProtected(pathOrName: string): boolean {
    return components(normalize(pathOrName).replace(/^\/+/u, '')).some((part) =>
      isProtectedName(part, this.#ctx.policy),
    );
  }

  /**
   * Synchronously holds a directory open and proves the descriptor is `dir`, so entries are then looked up and opened
   * inside that very directory even if its path is swapped for a link afterwards. `dir` is a real path the gate
   * returned (e.g. the parent of a resolved file): absolute, normalised, inside the root, no protected component; it
   * is opened without following a final link. Undefined when any of that fails, including when something on the way
   * was swapped since the check. See {@link HeldDir} for what a held directory offers; the caller closes it.
   */
  holdDirSync(dir: string): HeldDir | undefined {
    return holdDirIn(this.#ctx, dir);
  }

  /** Opens a regular file for reading after verifying the descriptor is the file that was checked. */
  openRead(path: string, options?: OpenReadOptions): Promise<OpenedFile | WorkspaceFailure> {
    return openReadIn(this.#ctx, path, options);
  }

  /**
   * {@link openRead}, except that a file of at most `loadBytes` is read whole on the spot and returned closed (a
   * {@link LoadedFile} with its `bytes`); a bigger one is returned open, as by {@link openRead}, and the caller closes
   * its `handle`. Same checks either way: no link followed, regular files only, the descriptor is the file checked.
   */
  openOrLoad(path: string, options: OpenOrLoadOptions): Promise<OpenedFile | LoadedFile | WorkspaceFailure> {
    return openOrLoadIn(this.#ctx, path, options);
  }

  /** Writes a whole file: exclusive create for new files, temp file + rename for existing ones. */
  writeFile(
    path: string,
    data: string | Uint8Array,
    options?: WriteFileOptions,
  ): Promise<WrittenFile | WorkspaceFailure> {
    return writeFileIn(this.#ctx, path, data, options);
  }

  /**
   * Replaces an existing file with content `fill` writes piece by piece (each piece at its own position, several may
   * be in flight): temp file beside it, fsync, `confirm`, atomic rename, like an overwrite by {@link writeFile}.
   * `fill` resolving false abandons it and leaves the file untouched (`{ success: true, abandoned: true }`).
   */
  replaceFile(
    path: string,
    fill: FillReplacement,
    options?: ReplaceFileOptions,
  ): Promise<ReplacedFile | WorkspaceFailure> {
    return replaceFileIn(this.#ctx, path, fill, options);
  }

  /** Creates a directory (and missing parents) inside the workspace without ever passing through a link. */
  mkdir(path: string): Promise<{ success: true; path: string } | WorkspaceFailure> {
    return mkdirIn(this.#ctx, path);
  }

  /**
   * Renames a file or directory inside the workspace; both ends pass the gate with write intent, an existing
   * destination is refused unless `overwrite` (regular files only), and a directory holding protected names or `.git`
   * stays where it is. Missing parents of the destination are created without following links.
   */
  move(from: string, to: string, options?: MoveOptions): Promise<MovedPath | WorkspaceFailure> {
    return moveIn(this.#ctx, from, to, options);
  }

  /**
   * Applies several file changes (create, replace, delete) all or nothing: every path through the gate, each new
   * content staged beside its target, every existing target re-checked against the bytes the caller validated, then
   * committed in order; any failure restores every file already changed and names the file and step.
   */
  applyChanges(changes: readonly FileChange[]): Promise<{ success: true; relative: string[] } | TransactionFailure> {
    return applyChangesIn(this.#ctx, changes);
  }

  /** Lists a directory depth-first in name order; throws {@link WorkspaceError} if the start directory is refused. */
  walk(dir: string, options?: WalkOptions): AsyncGenerator<WalkEntry, WalkSummary> {
    return walkIn(this.#ctx, dir, options);
  }

  /**
   * One directory's names, as a non-recursive walk with `details: false` would yield them, in one answer; a refused
   * directory comes back as the failure value instead of a thrown {@link WorkspaceError}.
   */
  listDirectory(dir: string, options?: ListDirectoryOptions): Promise<DirectoryListing | WorkspaceFailure> {
    return listDirectoryIn(this.#ctx, dir, options);
  }
}

/** One-shot check for callers that do not keep a Workspace around. */
export async function resolveInWorkspace(
  root: string,
  path: string,
  intent: PathIntent,
  options?: WorkspaceOptions,
): Promise<ResolvedPath | WorkspaceFailure> {
  return (await Workspace.open(root, options)).resolve(path, intent);
}
