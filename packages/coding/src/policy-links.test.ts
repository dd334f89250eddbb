import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Touches } from '@bough/core';
import { evaluatePermission, type PermissionPolicy, permissionHook } from '@bough/policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';

// A link inside the workspace must not carry a call past a path rule: the place it leads to is matched as well.
describe('path rules and symbolic links', () => {
  const policy: PermissionPolicy = {
    allow: { '*': ['*'] },
    deny: { '*': ['secrets/**'] },
  };
  let base: string;
  let root: string;
  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'policy-links-'));
    // The root as given goes through a link itself (a linked temporary directory): rules still see real paths.
    mkdirSync(join(base, 'real', 'secrets'), { recursive: true });
    mkdirSync(join(base, 'real', 'docs'));
    mkdirSync(join(base, 'real', 'src'));
    writeFileSync(join(base, 'real', 'secrets', 'key'), 'k');
    writeFileSync(join(base, 'real', 'src', 'a.ts'), 'a');
    symlinkSync(join(base, 'real'), join(base, 'ws'));
    root = join(base, 'ws');
    symlinkSync(join(realpathSync(base), 'real', 'secrets'), join(root, 'public'));
    symlinkSync('docs', join(root, 'notes'));
    symlinkSync('secrets/key', join(root, 'key.txt'));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const verdict = (tool: string, touches: Touches) =>
    evaluatePermission(policy, tool, {}, undefined, { touches, root });

  it('denies a read, a write, a create and a move that reach a denied directory through a link', () => {
    expect(verdict('reader', { read: ['public/key'] })).toMatchObject({ decision: 'deny', subject: 'secrets/key' });
    expect(verdict('reader', { read: ['key.txt'] })).toMatchObject({ decision: 'deny', rule: 'secrets/**' });
    expect(verdict('editor', { write: ['public/key'] }).decision).toBe('deny');
    expect(verdict('editor', { write: ['src/a.ts'], create: ['public/new.txt'] })).toMatchObject({
      decision: 'deny',
      subject: 'secrets/new.txt',
    });
    expect(verdict('editor', { move: [{ from: 'src/a.ts', to: 'public/a.ts' }] }).decision).toBe('deny');
    expect(verdict('reader', { read: [join(root, 'public', 'key')] }).decision).toBe('deny');
  });

  it('asks when a link leads into a path an ask rule names, and allows paths with no link on the way', () => {
    const narrow: PermissionPolicy = { allow: { editor: ['src/*', 'notes/*'] }, ask: { editor: ['docs/*'] } };
    const create = (path: string) =>
      evaluatePermission(narrow, 'editor', {}, undefined, { touches: { create: [path] }, root });
    expect(create('notes/new.md')).toMatchObject({ decision: 'ask', subject: 'docs/new.md' });
    expect(verdict('reader', { read: ['src/a.ts'] })).toMatchObject({ decision: 'allow', subject: 'src/a.ts' });
    expect(verdict('editor', { create: ['src/b.ts', 'src/c/d.ts'] })).toMatchObject({ decision: 'allow' });
  });
});

// Through the toolkit, the reader's and the editor's own gates judge where a link leads (the walk that opens the
// path), so their permission check matches paths as asked and walks nothing itself.
describe('path rules and links through the toolkit', () => {
  let root: string;
  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'policy-gate-')));
    mkdirSync(join(root, 'secrets'));
    mkdirSync(join(root, 'docs'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'secrets', 'key'), 'SECRET-CANARY');
    writeFileSync(join(root, 'docs', 'a.md'), 'doc\n');
    symlinkSync(join(root, 'secrets'), join(root, 'public'));
    symlinkSync('docs', join(root, 'notes'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const branchWith = (permissions: PermissionPolicy, onAsk?: () => boolean) =>
    toolkitBranch(root, {
      tools: ['reader', 'editor'],
      permissions,
      notify: false,
      diagnostics: false,
      ...(onAsk ? { onAsk } : {}),
    });

  it('refuses through the gate what a link would carry past a rule, naming the rule; nothing shown or written', async () => {
    const branch = branchWith({ allow: { '*': ['*'] }, deny: { '*': ['secrets/**'] } });
    const many = await call(branch, 'reader', { action: 'read_many', paths: ['docs/a.md', 'public/key'] });
    expect(JSON.stringify(many)).not.toContain('SECRET-CANARY');
    expect(JSON.stringify(many)).toContain('deny rule \\"secrets/**\\"');
    const created = await call(branch, 'editor', { action: 'write', file_path: 'public/new', content: 'x' });
    expect(created).toMatchObject({ error_code: 'denied' });
    expect(await call(branch, 'reader', { action: 'read', path: 'notes/a.md' })).toMatchObject({ success: true });
  });

  it('refuses a link into a path an ask rule names (the model names the real path, which is then asked about)', async () => {
    const asked: string[] = [];
    const branch = branchWith(
      { allow: { editor: ['src/*', 'notes/*'], reader: ['*'] }, ask: { editor: ['docs/*'] } },
      () => {
        asked.push('x');
        return true;
      },
    );
    const viaLink = await call(branch, 'editor', { action: 'write', file_path: 'notes/new.md', content: 'x' });
    expect(viaLink).toMatchObject({ error_code: 'denied', error: expect.stringContaining('asks about') });
    expect(asked).toEqual([]);
    expect(await call(branch, 'editor', { action: 'write', file_path: 'docs/new.md', content: 'x' })).toMatchObject({
      success: true,
    });
    expect(asked).toEqual(['x']);
  });

  it('binds a path spelled from the real root when the toolkit knows the root by a linked name', async () => {
    const alias = `${root}-alias`;
    symlinkSync(root, alias);
    try {
      const branch = toolkitBranch(alias, {
        tools: ['reader', 'editor'],
        permissions: { allow: { '*': ['*'] }, deny: { '*': ['secrets/**'] } },
        notify: false,
        diagnostics: false,
      });
      const read = await call(branch, 'reader', { action: 'read', path: join(root, 'secrets', 'key') });
      expect(read).toMatchObject({ error_code: 'denied' });
      expect(JSON.stringify(read)).not.toContain('SECRET-CANARY');
      const write = await call(branch, 'editor', {
        action: 'write',
        file_path: join(root, 'secrets', 'k2'),
        content: 'x',
      });
      expect(write).toMatchObject({ error_code: 'denied' });
      expect(existsSync(join(root, 'secrets', 'k2'))).toBe(false);
      expect(await call(branch, 'reader', { action: 'read', path: join(root, 'docs', 'a.md') })).toMatchObject({
        success: true,
      });
    } finally {
      rmSync(alias, { force: true });
    }
  });

  it('leaves links alone under rules that are all catch-alls (an approved write through a link goes ahead)', async () => {
    const branch = branchWith({ ask: { editor: ['*'] }, allow: { reader: ['*'] } }, () => true);
    expect(await call(branch, 'editor', { action: 'write', file_path: 'notes/b.md', content: 'x' })).toMatchObject({
      success: true,
    });
  });

  it('a hook made for a gated tool matches paths as asked; made for any other, it still follows links', () => {
    const policy: PermissionPolicy = { allow: { '*': ['*'] }, deny: { '*': ['secrets/**'] } };
    const tool = { name: 'reader', touches: () => ({ read: ['public/key'] }) } as never;
    const args = { action: 'read', path: 'public/key' };
    expect(
      permissionHook(policy, undefined, undefined, undefined, undefined, () => root, true)({ tool, args, callId: 'a' }),
    ).toBeUndefined();
    expect(
      permissionHook(policy, undefined, undefined, undefined, undefined, () => root)({ tool, args, callId: 'b' }),
    ).toBeDefined();
  });
});
