import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A real temporary directory tree for one test: `root` is the workspace, `outside` a sibling that must stay untouched. */
export interface TempWorkspace {
  /** Real path of the parent directory holding `root` and `outside`. */
  readonly base: string;
  /** Real path of the workspace root. */
  readonly root: string;
  /** Real path of a directory beside the workspace, for escape tests (a sibling whose name shares the root's prefix). */
  readonly outside: string;
  /** Writes a file (creating parents) relative to the root, with `mode` if given; returns its absolute path. */
  write(relative: string, content: string | Uint8Array, mode?: number): string;
  /** Absolute path of a relative path under the root. */
  path(relative: string): string;
  /** Removes the whole tree. */
  cleanup(): void;
}

/** Creates `<tmp>/bk-XXXX/ws` (the workspace) and `<tmp>/bk-XXXX/ws-evil` (outside), optionally pre-filled. */
export function makeWorkspace(files: Record<string, string | Uint8Array> = {}): TempWorkspace {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'bk-')));
  const root = join(base, 'ws');
  const outside = join(base, 'ws-evil');
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'OUTSIDE-SECRET-CANARY\n');
  const ws: TempWorkspace = {
    base,
    root,
    outside,
    write(relative, content, mode) {
      const target = join(root, relative);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content, mode === undefined ? undefined : { mode });
      return target;
    },
    path: (relative) => join(root, relative),
    cleanup: () => rmSync(base, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }),
  };
  for (const [name, content] of Object.entries(files)) ws.write(name, content);
  return ws;
}

/** The sha256 (hex) of a file's bytes on disk, as tools report it. */
export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}
