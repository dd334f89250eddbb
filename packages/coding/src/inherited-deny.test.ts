import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { PERMISSION_PRESETS, type PermissionPolicy, pathDenied, touchDenied } from '@bough/policy';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inheritedDeny, withDenyRules } from './inherited-deny.js';

let ws: TempWorkspace;
beforeAll(() => {
  ws = makeWorkspace();
  mkdirSync(join(ws.root, 'sub', 'deep'), { recursive: true });
  mkdirSync(join(ws.root, 'real', 'secret'), { recursive: true });
  symlinkSync('real', join(ws.root, 'link'));
});
afterAll(() => ws.cleanup());

const policy = (deny: Record<string, string[]>): PermissionPolicy => ({ allow: { '*': ['*'] }, deny });

describe("inheritedDeny: the parent's deny rules, spelled from the child's root", () => {
  it.each([
    [
      'the same root keeps every rule',
      '.',
      { '*': ['secrets/**'], reader: ['*.pem'] },
      [],
      {
        '*': ['secrets/**'],
        reader: ['*.pem'],
      },
    ],
    ['a rule below the child is rebased', 'sub', { '*': ['sub/secrets/**'] }, [], { '*': ['secrets/**'] }],
    ['a rule outside the child leaves nothing', 'sub', { '*': ['secrets/**'], reader: ['/etc/**'] }, [], {}],
    ['a rule covering the child denies it whole', 'sub', { '*': ['sub/**'] }, [], { '*': ['*'] }],
    ['a rule naming the child denies it whole', 'sub/deep', { reader: ['sub/deep'] }, [], { reader: ['*'] }],
    ['a catch-all stays', 'sub', { editor: ['*'] }, [], { editor: ['*'] }],
    // A described tool's rules also match its command, which does not move with the directory.
    [
      'a command pattern stays for bash',
      'sub',
      { bash: ['rm *'], '*': ['sub/x/**'] },
      ['bash'],
      {
        bash: ['rm *', 'sub/x/**'],
        '*': ['x/**'],
      },
    ],
  ] as const)('%s', (_what, dir, deny, described, expected) => {
    const got = inheritedDeny(
      policy(deny as unknown as Record<string, string[]>),
      ws.root,
      join(ws.root, dir),
      described,
    );
    expect(got).toEqual(expected);
  });

  it('gives nothing when the parent has no deny rules, and refuses a child outside the parent', () => {
    expect(inheritedDeny(PERMISSION_PRESETS.allow_all, ws.root, ws.root, [])).toBeUndefined();
    expect(inheritedDeny(undefined, ws.root, ws.root, [])).toBeUndefined();
    expect(() => inheritedDeny(policy({ '*': ['x'] }), join(ws.root, 'sub'), ws.root, [])).toThrow(/not inside/);
  });

  it('binds every level: a grandchild in sub/deep meets the rules of its parent and grandparent', () => {
    const top = policy({ '*': ['sub/deep/secrets/**'], reader: ['sub/deep/*.pem'] });
    const child = withDenyRules(PERMISSION_PRESETS.read_only, inheritedDeny(top, ws.root, join(ws.root, 'sub'), []));
    const grandchild = withDenyRules(
      PERMISSION_PRESETS.read_only,
      inheritedDeny(child, join(ws.root, 'sub'), join(ws.root, 'sub', 'deep'), []),
    );
    expect(pathDenied(grandchild, 'search', 'secrets/k.txt')).toBe(true);
    expect(pathDenied(grandchild, 'reader', 'a.pem')).toBe(true);
    expect(pathDenied(grandchild, 'search', 'a.pem')).toBe(false);
    expect(pathDenied(grandchild, 'search', 'src/a.py')).toBe(false);
    // The child's own preset rules (read_only: no editor, no bash) carry down as well.
    expect(pathDenied(grandchild, 'editor', 'src/a.py')).toBe(true);
    expect(grandchild.name).toContain('read_only');
  });

  it("never denies the child's own root for a rule that only names paths below it (hidden dotfiles)", () => {
    const parent = policy({ '*': ['**/.*', 'sub/?'] });
    for (const dir of ['sub', 'sub/deep']) {
      const cwd = join(ws.root, dir);
      const child = withDenyRules(PERMISSION_PRESETS.allow_all, inheritedDeny(parent, ws.root, cwd, []));
      expect(touchDenied(child, 'search', { workspace: true }, cwd), dir).toBeUndefined();
      expect(touchDenied(child, 'reader', { read: ['.'] }, cwd), dir).toBeUndefined();
      expect(touchDenied(child, 'reader', { read: ['.env'] }, cwd), dir).toMatchObject({ path: '.env' });
      expect(pathDenied(child, 'search', 'src/.cache/x'), dir).toBe(true);
      expect(pathDenied(child, 'search', 'src/a.py'), dir).toBe(false);
    }
    // A rule naming the directory itself still denies it whole.
    expect(inheritedDeny(policy({ '*': ['*/.*', 'sub'] }), ws.root, join(ws.root, 'sub'), [])).toMatchObject({
      '*': expect.arrayContaining(['*']),
    });
  });

  it('binds a rule spelled through the link the child works in, and one spelled by the real path', () => {
    for (const rule of ['link/secret/**', 'real/secret/**']) {
      const cwd = join(ws.root, 'link');
      const child = withDenyRules(
        PERMISSION_PRESETS.allow_all,
        inheritedDeny(policy({ '*': [rule] }), ws.root, cwd, []),
      );
      expect(touchDenied(child, 'reader', { read: ['secret/k.txt'] }, cwd), rule).toMatchObject({ rule: 'secret/**' });
      expect(touchDenied(child, 'reader', { read: ['other.txt'] }, cwd), rule).toBeUndefined();
    }
    // A child reached through the link, but whose parent's rule names the link itself, is denied whole.
    expect(inheritedDeny(policy({ reader: ['link'] }), ws.root, join(ws.root, 'link'), [])).toEqual({ reader: ['*'] });
  });
});
