import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { snapshotTree } from '@bough/test-utils';
import { Workspace, type WorkspaceOptions } from './workspace.js';

/** The canary text planted outside the workspace; it must never appear in any result. */
export const CANARY = 'OUTSIDE-SECRET-CANARY';

/** A real temp tree for one test: `root` is the workspace, `outside` a prefix-sharing sibling that must stay untouched. */
export interface Fixture {
  readonly base: string;
  readonly root: string;
  readonly outside: string;
  readonly ws: Workspace;
  write(relative: string, content: string | Uint8Array): string;
  path(relative: string): string;
  /** Every entry under `outside` with type, inode, mode, size, link target and content. */
  snapshotOutside(): string;
  cleanup(): void;
}

/** Records a directory tree so a test can prove nothing in it was created, changed or removed. */
export const snapshot = snapshotTree;

/** Creates `<tmp>/wsf-XXXX/{ws,ws-evil}` with a canary outside and an open Workspace on `ws`. */
export function makeFixture(files: Record<string, string> = {}, options: WorkspaceOptions = {}): Fixture {
  const base = mkdtempSync(join(tmpdir(), 'wsf-'));
  const root = join(base, 'ws');
  const outside = join(base, 'ws-evil');
  mkdirSync(root);
  mkdirSync(join(outside, 'dir'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), `${CANARY}\n`);
  writeFileSync(join(outside, 'dir', 'x.txt'), `${CANARY} in dir\n`);
  const write = (relative: string, content: string | Uint8Array) => {
    const target = join(root, relative);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
    return target;
  };
  for (const [name, content] of Object.entries(files)) write(name, content);
  return {
    base,
    root,
    outside,
    ws: Workspace.openSync(root, options),
    write,
    path: (relative) => join(root, relative),
    snapshotOutside: () => snapshot(outside),
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}
