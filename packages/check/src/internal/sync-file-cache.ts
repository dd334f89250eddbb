import { resolve } from 'node:path';
import { readWorkspaceText, type Workspace } from '@bough/workspace';
import { isInside } from '@bough/workspace/internal';

/**
 * Answers the TypeScript compiler's synchronous file questions from memory. Workspace files are only ever read through
 * the workspace gate: an unknown path is recorded as pending and reported missing, then loaded asynchronously before the
 * next round. Paths outside the workspace are missing, except the compiler's own library files.
 */
export class SyncFileCache {
  readonly #files = new Map<string, string | null>();
  readonly #dirs = new Map<string, boolean>();
  readonly #pendingFiles = new Set<string>();
  readonly #pendingDirs = new Set<string>();
  readonly #failures = new Map<string, string>();
  readonly #workspace: Workspace;
  readonly #libDir: string;
  readonly #library: (path: string) => string | undefined;
  readonly #maxBytes: number;
  readonly #maxFiles: number;
  #loaded = 0;
  /** True once the file cap refused a load. */
  capped = false;

  constructor(
    workspace: Workspace,
    library: { readonly libDir: string; library(path: string): string | undefined },
    limits: { maxBytes: number; maxFiles: number },
  ) {
    this.#workspace = workspace;
    this.#libDir = library.libDir;
    this.#library = (path) => library.library(path);
    this.#maxBytes = limits.maxBytes;
    this.#maxFiles = limits.maxFiles;
  }

  #within(base: string, path: string): boolean {
    return isInside(base, resolve(path));
  }

  /**
   * Whether `path` lies in the compiler's library directory. Those files come from the compiler itself (its bundled
   * texts), never from disk, so a file placed there (also inside the workspace) is not read; other names are absent.
   */
  isLibrary(path: string): boolean {
    return this.#within(this.#libDir, path);
  }

  /** Seeds a file already read through the workspace. */
  seed(path: string, text: string | null): void {
    this.#files.set(resolve(path), text);
  }

  /** The text of a file, or undefined when unknown yet, refused or missing. */
  readFile(path: string): string | undefined {
    const abs = resolve(path);
    if (this.isLibrary(abs)) return this.#library(abs);
    if (!this.#within(this.#workspace.root, abs)) return undefined;
    if (!this.#files.has(abs)) {
      this.#pendingFiles.add(abs);
      return undefined;
    }
    return this.#files.get(abs) ?? undefined;
  }

  /** Whether a file exists as far as the cache knows. */
  fileExists(path: string): boolean {
    return this.readFile(path) !== undefined;
  }

  /** Whether a directory exists inside the workspace (or the library directory). */
  directoryExists(path: string): boolean {
    const abs = resolve(path);
    if (this.isLibrary(abs)) return true;
    if (!this.#within(this.#workspace.root, abs)) return false;
    const known = this.#dirs.get(abs);
    if (known === undefined) this.#pendingDirs.add(abs);
    return known ?? false;
  }

  /** Whether a load of the file was attempted (false when the time budget ended the rounds before it). */
  attempted(path: string): boolean {
    return this.#files.has(resolve(path));
  }

  /** The workspace error code that kept a file out, if it was refused or unreadable. */
  failureOf(path: string): string | undefined {
    return this.#failures.get(resolve(path));
  }

  /** True when the last round asked for paths not loaded yet. */
  get hasPending(): boolean {
    return this.#pendingFiles.size > 0 || this.#pendingDirs.size > 0;
  }

  /** Loads every pending path through the workspace gate; refused or missing paths are remembered as absent. */
  async loadPending(): Promise<void> {
    const dirs = [...this.#pendingDirs];
    const files = [...this.#pendingFiles];
    this.#pendingDirs.clear();
    this.#pendingFiles.clear();
    for (const dir of dirs) {
      const found = await this.#workspace.resolve(dir, 'list');
      this.#dirs.set(dir, !('error_code' in found) && found.kind === 'directory');
    }
    for (const file of files) {
      if (this.#loaded >= this.#maxFiles) {
        this.capped = true;
        this.#files.set(file, null);
        continue;
      }
      const found = await this.#workspace.resolve(file, 'read');
      if (!found.success || found.kind !== 'file') {
        if (!found.success) this.#failures.set(file, found.error_code);
        this.#files.set(file, null);
        continue;
      }
      const read = await readWorkspaceText(this.#workspace, file, { maxBytes: this.#maxBytes });
      this.#loaded++;
      if ('error_code' in read) this.#failures.set(file, read.error_code);
      this.#files.set(file, 'error_code' in read ? null : read.text);
    }
  }
}
