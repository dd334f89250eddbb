import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Workspace, type WorkspaceOptions } from '@bough/workspace';
import { afterEach, beforeEach, expect } from 'vitest';
import { snapshotTree } from './snapshot.js';

/** The canary text planted outside the workspace; it must never appear in any result. */
export const CANARY = 'OUTSIDE-SECRET-CANARY';

/** A workspace package test's temp tree: `root` is the workspace, `outside` a prefix-sharing sibling that must stay untouched. */
/**
 * A tree with something for every walk rule: nested sources, a hidden file, protected names, an ignored directory and
 * ignored files (root and nested .gitignore, with a re-included name) and a .git directory.
 */
export const WALK_FIXTURE_FILES: Readonly<Record<string, string>> = Object.freeze({
  'b.txt': 'b',
  'a/z.ts': 'z',
  'a/y/x.ts': 'x',
  'c.log': 'log',
  '.hidden': 'h',
  '.env': `TOKEN=${CANARY}`,
  'a/id_rsa': 'key',
  'node_modules/pkg/index.js': 'js',
  'keep/.gitignore': '*.tmp\n!important.tmp\n',
  'keep/junk.tmp': 'j',
  'keep/important.tmp': 'i',
  '.git/HEAD': 'ref',
  '.gitignore': 'node_modules/\n*.log\n',
});

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
    snapshotOutside: () => snapshotTree(outside),
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** What {@link useFixture} hands back to the test file. */
export interface FixtureHooks {
  /** Takes the outside tree as it is now as the one every test must leave unchanged (after planting something there). */
  acceptOutside(): void;
}

/**
 * The usual lifecycle of a workspace test file: before each test a fresh {@link makeFixture} with `files` (handed to
 * `use`) and a snapshot of everything outside the workspace; after it, that snapshot must be unchanged and the tree
 * is removed.
 */
export function useFixture(
  files: Record<string, string>,
  use: (fixture: Fixture) => void,
  options: WorkspaceOptions = {},
): FixtureHooks {
  let fixture: Fixture | undefined;
  let before = '';
  beforeEach(() => {
    fixture = makeFixture({ ...files }, options);
    before = fixture.snapshotOutside();
    use(fixture);
  });
  afterEach(() => {
    const done = fixture;
    fixture = undefined;
    if (!done) return;
    try {
      expect(done.snapshotOutside()).toBe(before);
    } finally {
      done.cleanup();
    }
  });
  return {
    acceptOutside() {
      if (fixture) before = fixture.snapshotOutside();
    },
  };
}
