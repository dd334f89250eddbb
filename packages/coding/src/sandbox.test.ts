import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitBranches, gitSync, type TempWorkspace, useGitRepo } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';
import { STANDARD_SOURCES } from './tool-sources.js';
import type { CodingToolkitOptions } from './toolkit.js';

const sources = STANDARD_SOURCES;
let ws: TempWorkspace;
useGitRepo({ 'a.txt': 'alpha\n', 'src/b.txt': 'beta\n', 'pkg/.keep': '' }, (made) => {
  ws = made;
});

const identity = { name: 'Sandbox Test', email: 'sandbox@example.invalid' };
const branchFor = (options: CodingToolkitOptions = {}) =>
  toolkitBranch(
    ws.root,
    { tools: ['reader', 'editor', 'sandbox'], notify: false, ...options, sandbox: { identity, ...options.sandbox } },
    { sources },
  );
const status = () => gitSync(ws.root, 'status', '--porcelain');
const branches = () => gitBranches(ws.root);

describe('sandbox lifecycle', () => {
  it('creates an ignored worktree under .worktrees and routes file tools into it', async () => {
    const branch = branchFor();
    const made = await call(branch, 'sandbox', { action: 'create' });
    expect(made).toMatchObject({ success: true, base: 'dev' });
    const worktree = made.worktree as string;
    expect(worktree.startsWith(join(ws.root, '.worktrees', 'sandbox-'))).toBe(true);
    expect(existsSync(worktree)).toBe(true);
    expect(readFileSync(join(ws.root, '.git', 'info', 'exclude'), 'utf8')).toContain('/.worktrees/');
    expect(status()).toBe('');
    const written = await call(branch, 'editor', { action: 'write', file_path: 'new.txt', content: 'fresh\n' });
    expect(written.success).toBe(true);
    expect(existsSync(join(worktree, 'new.txt'))).toBe(true);
    expect(existsSync(ws.path('new.txt'))).toBe(false);
    expect(await call(branch, 'sandbox', { action: 'create' })).toMatchObject({ error_code: 'sandbox_active' });
  });

  it('diffs tracked and untracked changes against the base without touching the index', async () => {
    const branch = branchFor();
    const worktree = (await call(branch, 'sandbox', { action: 'create' })).worktree as string;
    await call(branch, 'reader', { action: 'read', path: 'a.txt' });
    await call(branch, 'editor', { action: 'edit', file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' });
    await call(branch, 'editor', { action: 'write', file_path: 'src/c.txt', content: 'new file\n' });
    const diff = await call(branch, 'sandbox', { action: 'diff' });
    expect(diff.success).toBe(true);
    expect(diff.files_changed).toEqual(['a.txt', 'src/c.txt']);
    expect(diff.patch).toContain('+ALPHA');
    expect(diff.patch).toContain('+new file');
    expect(gitSync(worktree, 'diff', '--cached', '--name-only')).toBe('');
    expect(gitSync(worktree, 'status', '--porcelain')).toContain('?? src/c.txt');
    const committed = await call(branch, 'sandbox', { action: 'commit', message: 'work' });
    expect(committed).toMatchObject({ success: true });
    expect(committed.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(await call(branch, 'sandbox', { action: 'commit', message: 'again' })).toMatchObject({
      success: true,
      message: expect.stringContaining('Nothing'),
    });
    expect((await call(branch, 'sandbox', { action: 'diff' })).files_changed).toEqual(['a.txt', 'src/c.txt']);
    expect(await call(branch, 'sandbox', { action: 'commit' })).toMatchObject({ error_code: 'invalid_request' });
  });

  it("keeps no more git output than the toolkit's gitOutputBytes", async () => {
    const big = Array.from({ length: 400 }, (_, i) => `line ${i}`).join('\n');
    const diffOf = async (limits: CodingToolkitOptions['limits']) => {
      const branch = branchFor(limits ? { limits } : {});
      await call(branch, 'sandbox', { action: 'create' });
      await call(branch, 'editor', { action: 'write', file_path: 'big.txt', content: `${big}\n` });
      const diff = await call(branch, 'sandbox', { action: 'diff' });
      await call(branch, 'sandbox', { action: 'discard' });
      return diff;
    };
    const whole = await diffOf(undefined);
    expect(whole.patch).toContain('+line 399');
    const capped = await diffOf({ gitOutputBytes: 1_000 });
    expect(capped.success).toBe(true);
    // The process layer keeps the head and the tail of a stream cut at the cap; the middle is gone.
    expect(capped.patch).not.toContain('+line 200\n');
    expect(capped.full_patch_chars as number).toBeLessThan(whole.full_patch_chars as number);
  });

  it('never shows the content of protected files or where new links point', async () => {
    const branch = branchFor({ tools: ['reader', 'editor', 'bash', 'sandbox'] });
    const worktree = (await call(branch, 'sandbox', { action: 'create' })).worktree as string;
    writeFileSync(join(worktree, '.env'), 'API_TOKEN=TOP-SECRET-VALUE\n');
    writeFileSync(join(worktree, 'id_rsa'), 'PRIVATE-KEY-BYTES\n');
    symlinkSync(ws.outside, join(worktree, 'outside-link'));
    await call(branch, 'editor', { action: 'write', file_path: 'plain.txt', content: 'visible\n' });
    const diff = await call(branch, 'sandbox', { action: 'diff' });
    const text = JSON.stringify(diff);
    expect(text).not.toContain('TOP-SECRET-VALUE');
    expect(text).not.toContain('PRIVATE-KEY-BYTES');
    expect(text).not.toContain(ws.outside);
    expect(diff.withheld).toEqual(['.env', 'id_rsa']);
    expect(diff.patch).toContain('+visible');
    await call(branch, 'sandbox', { action: 'commit', message: 'with secrets' });
    const after = JSON.stringify(await call(branch, 'sandbox', { action: 'diff' }));
    expect(after).not.toContain('TOP-SECRET-VALUE');
    expect(after).not.toContain('PRIVATE-KEY-BYTES');
  });

  it('refuses a bad patch or git setting when the toolkit is built, naming it', () => {
    expect(() => branchFor({ sandbox: { maxPatchChars: -1 } })).toThrow(/patchChars/);
  });

  it('caps the patch and reports its full size', async () => {
    const branch = branchFor({ sandbox: { maxPatchChars: 50 } });
    await call(branch, 'sandbox', { action: 'create' });
    await call(branch, 'editor', { action: 'write', file_path: 'big.txt', content: 'line\n'.repeat(100) });
    const diff = await call(branch, 'sandbox', { action: 'diff' });
    expect(diff).toMatchObject({ patch_truncated: true });
    expect(diff.full_patch_chars as number).toBeGreaterThan(500);
  });

  it('merges into the recorded base and cleans up, leaving the slot free', async () => {
    const branch = branchFor();
    const made = await call(branch, 'sandbox', { action: 'create' });
    await call(branch, 'editor', { action: 'write', file_path: 'feature.txt', content: 'done\n' });
    const merged = await call(branch, 'sandbox', { action: 'merge' });
    expect(merged).toMatchObject({ success: true, merged: true, worktree_removed: true, branch_deleted: true });
    expect(readFileSync(ws.path('feature.txt'), 'utf8')).toBe('done\n');
    expect(existsSync(made.worktree as string)).toBe(false);
    expect(branches()).toEqual(['dev']);
    expect(status()).toBe('');
    expect(gitSync(ws.root, 'log', '-1', '--format=%s %ae')).toMatch(/^Merge sandbox .* sandbox@example\.invalid\n$/);
    expect(await call(branch, 'sandbox', { action: 'diff' })).toMatchObject({ error_code: 'no_sandbox' });
    expect((await call(branch, 'sandbox', { action: 'create' })).success).toBe(true);
  });

  it('refuses an unverified or protected target', async () => {
    const branch = branchFor();
    await call(branch, 'sandbox', { action: 'create' });
    gitSync(ws.root, 'checkout', '-q', '-b', 'other');
    expect(await call(branch, 'sandbox', { action: 'merge' })).toMatchObject({
      error_code: 'merge_refused',
      error: expect.stringContaining("'other'"),
    });
    gitSync(ws.root, 'checkout', '-q', '--detach');
    expect(await call(branch, 'sandbox', { action: 'merge' })).toMatchObject({
      error_code: 'merge_refused',
      error: expect.stringContaining('detached'),
    });
    gitSync(ws.root, 'checkout', '-q', 'dev');
    expect((await call(branch, 'sandbox', { action: 'discard' })).success).toBe(true);
    gitSync(ws.root, 'branch', '-m', 'dev', 'main');
    await call(branch, 'sandbox', { action: 'create' });
    expect(await call(branch, 'sandbox', { action: 'merge' })).toMatchObject({ error_code: 'protected_branch' });
    expect((await call(branch, 'sandbox', { action: 'discard' })).success).toBe(true);
    const operator = branchFor({ sandboxAllowProtected: true });
    await call(operator, 'sandbox', { action: 'create' });
    await call(operator, 'editor', { action: 'write', file_path: 'x.txt', content: 'x\n' });
    expect(await call(operator, 'sandbox', { action: 'merge' })).toMatchObject({ success: true, merged: true });
    expect(existsSync(ws.path('x.txt'))).toBe(true);
  });

  it('aborts a conflicting merge, reports it, and keeps the sandbox', async () => {
    const branch = branchFor();
    await call(branch, 'sandbox', { action: 'create' });
    await call(branch, 'reader', { action: 'read', path: 'a.txt' });
    await call(branch, 'editor', { action: 'write', file_path: 'a.txt', content: 'sandbox side\n' });
    writeFileSync(ws.path('a.txt'), 'main side\n');
    gitSync(ws.root, 'commit', '-q', '-am', 'main change');
    const merged = await call(branch, 'sandbox', { action: 'merge' });
    expect(merged).toMatchObject({ success: false, error_code: 'merge_conflict', aborted: true, conflicts: ['a.txt'] });
    expect(existsSync(join(ws.root, '.git', 'MERGE_HEAD'))).toBe(false);
    expect(status()).toBe('');
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('main side\n');
    expect((await call(branch, 'sandbox', { action: 'diff' })).success).toBe(true);
  });

  it('discards retry-safely, even after the worktree vanished', async () => {
    const branch = branchFor();
    const made = await call(branch, 'sandbox', { action: 'create' });
    rmSync(made.worktree as string, { recursive: true, force: true });
    expect(await call(branch, 'sandbox', { action: 'diff' })).toMatchObject({ error_code: 'sandbox_missing' });
    const discarded = await call(branch, 'sandbox', { action: 'discard' });
    expect(discarded).toMatchObject({ success: true, worktree_removed: true, branch_deleted: true });
    expect(branches()).toEqual(['dev']);
    expect(await call(branch, 'sandbox', { action: 'discard' })).toMatchObject({ error_code: 'no_sandbox' });
    expect(gitSync(ws.root, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
  });

  it('works for a workspace below the repository root', async () => {
    const sub = join(ws.root, 'pkg');
    const branch = toolkitBranch(
      sub,
      { tools: ['editor', 'sandbox'], notify: false, sandbox: { identity } },
      { sources: STANDARD_SOURCES },
    );
    const made = await call(branch, 'sandbox', { action: 'create' });
    expect(made.worktree).toMatch(new RegExp(`^${ws.root}/\\.worktrees/sandbox-`));
    expect((await call(branch, 'editor', { action: 'write', file_path: 'n.txt', content: 'n\n' })).success).toBe(true);
    expect(existsSync(join(made.worktree as string, 'pkg', 'n.txt'))).toBe(true);
    expect((await call(branch, 'sandbox', { action: 'merge' })).success).toBe(true);
    expect(readFileSync(join(sub, 'n.txt'), 'utf8')).toBe('n\n');
  });

  it('fails cleanly outside a git repository', async () => {
    rmSync(join(ws.root, '.git'), { recursive: true, force: true });
    const branch = branchFor();
    expect(await call(branch, 'sandbox', { action: 'create' })).toMatchObject({
      success: false,
      error_code: 'not_a_git_repo',
    });
    expect(await call(branch, 'sandbox', { action: 'merge' })).toMatchObject({ error_code: 'no_sandbox' });
  });
});
