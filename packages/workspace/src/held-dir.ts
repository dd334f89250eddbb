import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { isAbsolute, join, normalize } from 'node:path';
import { components, isInside, posixRelative } from './internal/paths.js';
import { openProvenDir } from './internal/pinned-dir.js';
import type { ResolverContext } from './internal/resolver.js';
import { isProtectedName } from './protected-names.js';

const FILE_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

// Where the kernel can name an open descriptor (`/proc/self/fd`), names are looked up through the descriptor itself.
const PROC_FD = process.platform === 'linux';

/** A regular file opened by name inside a {@link HeldDir}; the caller closes `fd`. */
export interface HeldFile {
  readonly fd: number;
  /** Size from `fstat` of the descriptor, at most the `maxBytes` it was opened with. */
  readonly size: number;
}

/**
 * A workspace directory held open by descriptor and proven to be the directory that was asked for, so names are
 * looked up in that very directory rather than by its path again (a path can be swapped for a link after a check;
 * an open descriptor cannot). Synchronous throughout: these are metadata calls the kernel answers from memory, a few
 * times cheaper than a thread-pool round trip each. Close it when done.
 */
export interface HeldDir {
  /** The real path the directory was opened at. */
  readonly path: string;
  /**
   * True when names are looked up through the descriptor itself (Linux). False where the platform cannot name a
   * descriptor: the directory was proven by identity when held, but later lookups go by path again, so
   * {@link HeldDir.openFile} declines and callers open through {@link Workspace.openRead} instead.
   */
  readonly exact: boolean;
  /**
   * `lstat` of one entry of the held directory (a link is reported as a link, never followed). Undefined when it is
   * missing, cannot be read, the name is protected, or `name` is not a single plain name (`""`, `.`, `..`, a `/`).
   */
  entry(name: string): Stats | undefined;
  /**
   * Opens one entry the way the gate opens files for reading (final link never followed, no blocking on a FIFO) and
   * keeps the descriptor only when `fstat` shows a regular file of at most `maxBytes`. Undefined for anything else,
   * for protected or non-plain names, and whenever {@link HeldDir.exact} is false.
   */
  openFile(name: string, maxBytes: number): HeldFile | undefined;
  /**
   * The whole text (UTF-8) of an entry opened by {@link HeldDir.openFile}, read and closed at once: a synchronous
   * verified read for callers that cannot await, such as a TypeScript host. Undefined whenever `openFile` would be.
   */
  readText(name: string, maxBytes: number): string | undefined;
  /** Closes the directory descriptor; calling it again does nothing. */
  close(): void;
}

/** One path component that names an entry of the directory itself, never the directory or its parent. */
function plainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\0');
}

/**
 * Holds `dir` open for {@link Workspace.holdDirSync}: `dir` must be an absolute, normalised real path inside the root
 * (as the gate returns it) with no protected component; it is opened without following a final link and the
 * descriptor is proven to be that directory (the kernel's name for it on Linux, identity by path elsewhere).
 */
export function holdDirIn(ctx: ResolverContext, dir: string): HeldDir | undefined {
  if (
    typeof dir !== 'string' ||
    !isAbsolute(dir) ||
    dir.includes('\0') ||
    normalize(dir) !== dir ||
    /.\/$/u.test(dir)
  ) {
    return undefined;
  }
  if (!isInside(ctx.root, dir)) return undefined;
  const protectedName = (name: string) => isProtectedName(name, ctx.policy);
  if (components(posixRelative(ctx.root, dir)).some(protectedName)) return undefined;
  const proven = openProvenDir(dir);
  if (!proven) return undefined;
  const { fd, prefix: via } = proven;
  let open = true;
  const usable = (name: string) => open && plainName(name) && !protectedName(name);
  return {
    path: dir,
    exact: PROC_FD,
    entry(name) {
      if (!usable(name)) return undefined;
      try {
        return lstatSync(join(via, name), { throwIfNoEntry: false });
      } catch {
        return undefined;
      }
    },
    openFile(name, maxBytes) {
      if (!PROC_FD || !usable(name)) return undefined;
      let file: number;
      try {
        file = openSync(join(via, name), FILE_FLAGS);
      } catch {
        return undefined;
      }
      try {
        const st = fstatSync(file);
        if (st.isFile() && st.size <= maxBytes) return { fd: file, size: st.size };
      } catch {
        // a descriptor that cannot be inspected is not used
      }
      closeSync(file);
      return undefined;
    },
    readText(name, maxBytes) {
      const file = this.openFile(name, maxBytes);
      if (!file) return undefined;
      try {
        return readFileSync(file.fd, 'utf8');
      } catch {
        return undefined;
      } finally {
        closeSync(file.fd);
      }
    },
    close() {
      if (!open) return;
      open = false;
      try {
        closeSync(fd);
      } catch {
        // nothing is written through a directory descriptor; a failed close loses nothing
      }
    },
  };
}
