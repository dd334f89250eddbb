import type { HeldDir } from './held-dir.js';
import { plainParts } from './internal/paths.js';
import type { Workspace } from './workspace.js';

// Directories held open at once by default. Tools visit files mostly directory by directory, so a handful suffices;
// the oldest is closed first and held again (after a gate answer from memory) if it is needed later.
const DEFAULT_MAX_HELD = 32;

/**
 * Where the file of a relative path can be reached through {@link HeldParents.parentOf}:
 * - `held`: its parent directory passed the gate, is held open and proven (names are looked up through the
 *   descriptor), and `name` is the file's name in it;
 * - `refused`: the gate refused the parent directory, so the file is refused too;
 * - `unproven`: this path cannot be checked that way (not in plain form, or the directory could not be held or is not
 *   looked up by descriptor on this platform): take the whole path through the gate.
 */
export type ParentLookup =
  | { readonly kind: 'held'; readonly dir: HeldDir; readonly name: string }
  | { readonly kind: 'refused' }
  | { readonly kind: 'unproven' };

const REFUSED: ParentLookup = Object.freeze({ kind: 'refused' });
const UNPROVEN: ParentLookup = Object.freeze({ kind: 'unproven' });

/**
 * True when no lexical rule of the gate can refuse `path` whatever directory it is in: within the path length limit,
 * not blank, no `~` start, no NUL or backslash, and every component a plain name within the name limit. Only such a
 * path can be judged by its parent directory plus its own name.
 */
function plainPath(path: string, limits: { readonly maxPathLength: number; readonly maxNameBytes: number }): boolean {
  if (path.length > limits.maxPathLength || path.trim() === '' || path.startsWith('~') || /[\\\0]/.test(path)) {
    return false;
  }
  return plainParts(path)?.every((part) => Buffer.byteLength(part) <= limits.maxNameBytes) === true;
}

/**
 * The parent directories of the many files one tool call touches (grep confirming lines, find confirming paths,
 * structural search reading sources), each checked by the gate once and held open, so that every file in them costs
 * one synchronous lookup or open by name in a proven directory instead of a whole gate check on the thread pool.
 * Names are never followed when they are links and protected names are never opened ({@link HeldDir}). A held
 * directory is only used within one synchronous stretch, so the oldest can be closed at any time. Close it when done;
 * later lookups then answer `unproven`.
 */
export class HeldParents {
  readonly #workspace: Workspace;
  readonly #maxHeld: number;
  readonly #gated = new Map<string, Promise<string | undefined>>();
  readonly #held = new Map<string, HeldDir | undefined>();
  #closed = false;

  /** `maxHeld`: directories kept open at once (default 32); past it the oldest is closed. */
  constructor(workspace: Workspace, maxHeld: number = DEFAULT_MAX_HELD) {
    this.#workspace = workspace;
    this.#maxHeld = Math.max(1, Math.floor(maxHeld));
  }

  /**
   * Where the file of `relative` (workspace-relative, `/`-separated) can be looked up or opened: in its held parent
   * directory, refused with that directory, or only through the gate by itself (see {@link ParentLookup}). The gate
   * is asked once per directory for the life of this object; the directory must come back as itself, a real directory.
   */
  async parentOf(relative: string): Promise<ParentLookup> {
    if (this.#closed || !plainPath(relative, this.#workspace.limits)) return UNPROVEN;
    const slash = relative.lastIndexOf('/');
    const real = await this.#gatedDir(slash < 0 ? '.' : relative.slice(0, slash));
    if (real === undefined) return REFUSED;
    const dir = this.hold(real);
    if (!dir?.exact) return UNPROVEN;
    return { kind: 'held', dir, name: relative.slice(slash + 1) };
  }

  /**
   * Holds the directory at `realPath` (an absolute real path the gate returned) or returns the one already held;
   * undefined when it cannot be held or this object was closed. Use the result before the next await.
   */
  hold(realPath: string): HeldDir | undefined {
    if (this.#closed) return undefined;
    if (!this.#held.has(realPath)) {
      if (this.#held.size >= this.#maxHeld) {
        const [oldest, dir] = this.#held.entries().next().value ?? [];
        if (oldest !== undefined) this.#held.delete(oldest);
        dir?.close();
      }
      this.#held.set(realPath, this.#workspace.holdDirSync(realPath));
    }
    return this.#held.get(realPath);
  }

  /** Closes every held directory; later calls answer `unproven` (and `hold` undefined). Calling it again does nothing. */
  close(): void {
    this.#closed = true;
    for (const dir of this.#held.values()) dir?.close();
    this.#held.clear();
  }

  #gatedDir(dir: string): Promise<string | undefined> {
    let gated = this.#gated.get(dir);
    if (gated === undefined) {
      gated = this.#workspace.resolve(dir, 'read').then(
        (where) => (where.success && where.kind === 'directory' && where.relative === dir ? where.path : undefined),
        () => undefined,
      );
      this.#gated.set(dir, gated);
    }
    return gated;
  }
}
