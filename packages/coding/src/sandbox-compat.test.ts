// The deprecated names keep their old behaviour: `sandbox-` branches, `Merge sandbox` commits, the sandbox codes.
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitSync, initRepo, makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createSandbox, discardSandbox, sandboxCommit, sandboxDiff, sandboxMerge } from './index.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\n' });
  initRepo(ws.root, 'dev');
});
afterEach(() => ws.cleanup());
const identity = { name: 'Sandbox Test', email: 'sandbox@example.invalid' };

it('creates sandbox- branches and merges them with the old commit message', async () => {
  const made = await createSandbox(ws.root, { identity });
  if (!made.success) throw new Error(made.error);
  expect(made.session.branch).toMatch(/^sandbox-[0-9a-f]{8}$/);
  writeFileSync(join(made.session.worktree, 'b.txt'), 'b\n'.repeat(50));
  expect(await sandboxDiff(made.session, { maxPatchChars: 10 })).toMatchObject({ patch_truncated: true });
  expect(await sandboxCommit(made.session, 'add b', { identity })).toMatchObject({ success: true });
  expect(await sandboxMerge(made.session, { identity })).toMatchObject({ success: true, merged: true });
  expect(gitSync(ws.root, 'log', '-1', '--format=%s')).toBe(`Merge sandbox ${made.session.branch}\n`);
  expect(await discardSandbox(made.session)).toMatchObject({ success: true });
  expect(await sandboxDiff(made.session)).toMatchObject({ success: false, error_code: 'sandbox_missing' });
});

it('answers with sandbox_unsafe where the worktree package says worktree_unsafe', async () => {
  symlinkSync(ws.outside, join(ws.root, '.worktrees'));
  expect(await createSandbox(ws.root)).toMatchObject({ success: false, error_code: 'sandbox_unsafe' });
});
