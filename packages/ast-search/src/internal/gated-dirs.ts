import { join } from 'node:path';
import type { HeldDir, HeldFile, Workspace } from '@bough/workspace';

// Directories held open at once (files are parsed largest first, so a directory's files are not always together; a
// directory closed early is only held again, after another gate answer from memory).
const HELD_DIRS = 32;

/** A file opened in its held parent directory: the descriptor, its size, and the real path it was opened at. */
export interface OpenedInDir extends HeldFile {
  readonly path: string;
}

/**
 * True when no lexical rule of the workspace gate can refuse `relative` whatever its directory: within the length
 * limit, no '~' start, no NUL or backslash, every component a plain name within the name limit. Only such paths are
 * opened in their gated parent directory; any other path goes through the gate by itself, which gives its refusal.
 */
function plainPath(relative: string, limits: { maxPathLength: number; maxNameBytes: number }): boolean {
  if (relative.length > limits.maxPathLength || relative.trim() === '' || /^~|[\\\0]/.test(relative)) return false;
  return relative
    .split('/')
    .every((part) => part !== '' && part !== '.' && part !== '..' && Buffer.byteLength(part) <= limits.maxNameBytes);
}

/**
 * Opens the files of one search without the thread pool, so the pool's threads are left to the parses. The gate
 * resolves each parent directory once (names, containment, links along the way; it must come back as itself, a real
 * directory); the directory is held open and proven by the kernel to be the one the gate returned; the file's name is
 * then opened in it without following a link, and kept only when it is a regular file within the size cap (a
 * protected name is never opened). Each of those is a synchronous call answered from memory, where the gate's own
 * open costs an open, a readlink and a close on the thread pool, each queued behind the parses in flight. Undefined
 * whenever this cannot be proven (a non-plain path, a refused directory, a platform whose held directories cannot look
 * names up through the descriptor, or a file the open declines): the caller then opens through the gate as before,
 * which also says why a file is refused.
 */
export class GatedDirs {
  readonly #workspace: Workspace;
  readonly #gated = new Map<string, Promise<string | undefined>>();
  readonly #held = new Map<string, HeldDir | undefined>();
  #closed = false;

  constructor(workspace: Workspace) {
    this.#workspace = workspace;
  }

  async open(relative: string, maxBytes: number): Promise<OpenedInDir | undefined> {
    if (!plainPath(relative, this.#workspace.limits)) return undefined;
    const slash = relative.lastIndexOf('/');
    const dir = await this.#gatedDir(slash < 0 ? '.' : relative.slice(0, slash));
    if (dir === undefined || this.#closed) return undefined;
    // From here on synchronous: a held directory is never used across an await, so one can be closed at any time.
    const held = this.#hold(dir);
    if (!held?.exact) return undefined;
    const name = relative.slice(slash + 1);
    const file = held.openFile(name, maxBytes);
    return file ? { ...file, path: join(held.path, name) } : undefined;
  }

  /** Closes every held directory; later opens decline (files still in flight then go through the gate). */
  close(): void {
    this.#closed = true;
    for (const held of this.#held.values()) held?.close();
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

  #hold(dir: string): HeldDir | undefined {
    if (!this.#held.has(dir)) {
      if (this.#held.size >= HELD_DIRS) {
        const [oldest, held] = this.#held.entries().next().value ?? [];
        if (oldest !== undefined) this.#held.delete(oldest);
        held?.close();
      }
      this.#held.set(dir, this.#workspace.holdDirSync(dir));
    }
    return this.#held.get(dir);
  }
}
