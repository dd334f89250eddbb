import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Touches } from '@bough/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluatePermission, type PermissionPolicy } from './permissions.js';

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
