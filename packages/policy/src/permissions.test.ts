import type { Touches } from '@bough/core';
import { describe, expect, it } from 'vitest';
import { PERMISSION_PRESETS, type PermissionPolicy } from './permission-policy.js';
import { permissionSubject } from './permission-subject.js';
import { evaluatePermission, permissionHook } from './permissions.js';

const decide = (policy: PermissionPolicy, tool: string, args: unknown) =>
  evaluatePermission(policy, tool, args).decision;
const { safe, read_only: readOnly, allow_all: allowAll, deny_all: denyAll } = PERMISSION_PRESETS;

describe('permission presets', () => {
  it('allow_all and deny_all decide everything', () => {
    for (const tool of ['reader', 'editor', 'bash', 'sandbox', 'subagent', 'anything']) {
      expect(decide(allowAll, tool, {})).toBe('allow');
      expect(decide(denyAll, tool, {})).toBe('deny');
    }
  });

  it('read_only allows the reading tools and denies editor, bash and unlisted tools', () => {
    for (const tool of ['reader', 'search', 'context', 'code_check', 'code_nav', 'ast_search']) {
      expect(decide(readOnly, tool, { action: 'x' })).toBe('allow');
    }
    expect(decide(readOnly, 'editor', { action: 'write', file_path: 'a.txt' })).toBe('deny');
    expect(decide(readOnly, 'bash', { command: 'ls' })).toBe('deny');
    expect(decide(readOnly, 'sandbox', { action: 'create' })).toBe('deny');
    expect(decide(readOnly, 'subagent', { instruction: 'x' })).toBe('deny');
  });

  it('safe allows reads, asks for edits, denies destructive commands and asks for every other command', () => {
    expect(decide(safe, 'editor', { action: 'edit', file_path: 'src/a.ts' })).toBe('ask');
    expect(decide(safe, 'editor', { action: 'write', file_path: 'new.ts', content: 'x' })).toBe('ask');
    for (const tool of ['reader', 'search', 'context', 'code_check', 'code_nav', 'ast_search']) {
      expect(decide(safe, tool, { action: 'read', path: 'a.txt' }), tool).toBe('allow');
    }
    for (const command of [
      'rm -rf /',
      'sudo ls',
      'chmod 777 x',
      'kill -9 1',
      'mkfs.ext4 /dev/sda',
      'dd if=/dev/zero of=x',
      'git push --force',
      'git push',
    ]) {
      expect(decide(safe, 'bash', { command }), command).toBe('deny');
    }
    expect(decide(safe, 'bash', { command: 'ls -la' })).toBe('ask');
    expect(decide(safe, 'bash', { command: 'npm test' })).toBe('ask');
  });

  it('safe allows a command without asking only when it will run in the OS sandbox; deny rules still win', () => {
    const sandboxed = (command: string) =>
      evaluatePermission(safe, 'bash', { command }, undefined, { sandboxed: true });
    expect(sandboxed('npm test')).toMatchObject({ decision: 'allow', sandboxed: true, rule: 'allowSandboxed' });
    expect(evaluatePermission(safe, 'bash', { command: 'npm test' }, undefined, { sandboxed: false }).decision).toBe(
      'ask',
    );
    expect(sandboxed('rm -rf src').decision).toBe('deny');
    expect(sandboxed("sh -c '$X a.txt'")).toMatchObject({ decision: 'ask', opaque: true });
    // Only the tools the policy names: the editor still asks.
    expect(evaluatePermission(safe, 'editor', { file_path: 'a' }, undefined, { sandboxed: true }).decision).toBe('ask');
    expect(evaluatePermission(readOnly, 'bash', { command: 'ls' }, undefined, { sandboxed: true }).decision).toBe(
      'deny',
    );
    expect(decide(safe, 'jobs', { action: 'list' })).toBe('allow');
  });

  it('deny rules see through program paths, extra whitespace and case', () => {
    expect(decide(safe, 'bash', { command: '/bin/rm -rf x' })).toBe('deny');
    expect(decide(safe, 'bash', { command: '   rm    -rf   x' })).toBe('deny');
    expect(decide(safe, 'bash', { command: 'RM -rf x' })).toBe('deny');
    expect(decide(safe, 'bash', { command: 'rm' })).toBe('deny');
  });

  it('deny rules see the command as it will run: quotes removed, launchers skipped', () => {
    for (const command of [
      "'rm' -rf x",
      '"rm" -rf x',
      "r''m -rf x",
      'env rm -rf x',
      'env FOO=1 BAR=2 /usr/bin/rm -rf x',
      'nice -n 5 rm x',
      'timeout 10 rm x',
      'xargs -0 rm',
      'sudo -u root ls',
      'command git push origin main',
    ]) {
      expect(decide(safe, 'bash', { command }), command).toBe('deny');
    }
    expect(decide(safe, 'bash', { command: 'git commit -m "rm old files"' })).toBe('ask');
    expect(decide(safe, 'bash', { command: 'echo rm -rf' })).toBe('ask');
  });

  it('allow rules match only the literal command, never a look-alike program elsewhere', () => {
    const policy: PermissionPolicy = { allow: { bash: ['ls *'] } };
    expect(decide(policy, 'bash', { command: 'ls -la' })).toBe('allow');
    expect(decide(policy, 'bash', { command: '/tmp/evil/ls -la' })).toBe('deny');
  });
});

describe('rule order and subjects', () => {
  it('consults deny, then allow, then ask, then denies by default', () => {
    const policy: PermissionPolicy = {
      allow: { editor: ['*'] },
      deny: { editor: ['*.lock'] },
      ask: { bash: ['git *'] },
    };
    expect(decide(policy, 'editor', { file_path: 'pnpm.lock' })).toBe('deny');
    expect(decide(policy, 'editor', { file_path: 'a.ts' })).toBe('allow');
    expect(decide(policy, 'bash', { command: 'git status' })).toBe('ask');
    expect(decide(policy, 'bash', { command: 'make' })).toBe('deny');
    expect(evaluatePermission(policy, 'bash', { command: 'make' }).rule).toBeUndefined();
  });

  it("'*' rules apply to every tool", () => {
    const policy: PermissionPolicy = { allow: { '*': ['*'] }, deny: { '*': ['*secret*'] } };
    expect(decide(policy, 'reader', { path: 'docs/secret.md' })).toBe('deny');
    expect(decide(policy, 'reader', { path: 'docs/plain.md' })).toBe('allow');
  });

  it('builds the documented subject per tool', () => {
    expect(permissionSubject('bash', { command: '  ls  -la ' }).literal).toBe('ls -la');
    expect(permissionSubject('subagent', { instruction: 'look', permissions: 'safe' }).literal).toBe('safe look');
    expect(permissionSubject('code_check', { paths: ['a.py', 'b.py'] }).literal).toBe('a.py b.py');
    expect(permissionSubject('sandbox', { action: 'merge' }).literal).toBe('merge');
  });

  it('matches path rules against every touched path; the most restrictive answer wins', () => {
    const policy: PermissionPolicy = {
      allow: { editor: ['*'] },
      deny: { editor: ['secrets/*'] },
      ask: { editor: ['docs/*'] },
    };
    const verdict = (touches: Touches) => evaluatePermission(policy, 'editor', {}, undefined, { touches, root: '/ws' });
    expect(verdict({ write: ['a.txt', 'b.txt'] })).toMatchObject({ decision: 'allow', subject: 'a.txt, b.txt' });
    // An ask names every path that needs approval, and only those.
    const review: PermissionPolicy = { allow: { editor: ['a.txt'] }, ask: { editor: ['docs/*'] } };
    expect(
      evaluatePermission(review, 'editor', {}, undefined, { touches: { write: ['docs/a.md', 'a.txt', 'docs/b.md'] } }),
    ).toMatchObject({ decision: 'ask', rule: 'docs/*', subject: 'docs/a.md, docs/b.md' });
    expect(verdict({ create: ['a.txt', 'secrets/key.txt'] })).toMatchObject({
      decision: 'deny',
      rule: 'secrets/*',
      subject: 'secrets/key.txt',
    });
    expect(verdict({ move: [{ from: 'notes.txt', to: 'secrets/notes.txt' }] }).decision).toBe('deny');
    expect(verdict({ move: [{ from: 'secrets/k', to: 'k' }] }).decision).toBe('deny');
    expect(verdict({ write: ['./secrets//k', '/ws/x/../secrets/k'] }).decision).toBe('deny');
    // A deny rule also covers the directory it names (a listing of `secrets`), and a path in it written any way.
    expect(verdict({ read: ['secrets'] }).decision).toBe('deny');
    expect(verdict({ read: ['/ws/secrets/'] }).decision).toBe('deny');
    expect(verdict({ write: ['a.txt', 'docs/x.md'] })).toMatchObject({ decision: 'allow' });
    // bash: the command is its subject; its cwd meets the deny rules.
    const bashPolicy: PermissionPolicy = { allow: { bash: ['ls*'] }, deny: { '*': ['secrets/**'] } };
    const run = (cwd: string) =>
      evaluatePermission(bashPolicy, 'bash', { command: 'ls' }, undefined, { touches: { cwd }, root: '/ws' });
    expect(run('.').decision).toBe('allow');
    expect(run('secrets/a')).toMatchObject({ decision: 'deny', subject: 'secrets/a' });
  });

  it('supports ? and character classes', () => {
    const policy: PermissionPolicy = { allow: { reader: ['src/?.ts', 'lib/[ab]*'] } };
    expect(decide(policy, 'reader', { path: 'src/a.ts' })).toBe('allow');
    expect(decide(policy, 'reader', { path: 'src/ab.ts' })).toBe('deny');
    expect(decide(policy, 'reader', { path: 'lib/b.js' })).toBe('allow');
    expect(decide(policy, 'reader', { path: 'lib/c.js' })).toBe('deny');
  });
});

describe('permissionHook', () => {
  const tool = { name: 'bash' } as never;
  const run = (hook: ReturnType<typeof permissionHook>, command: string) =>
    hook({ tool, callId: 'c', args: { command } });

  it('fails closed on ask without an approver, naming the command', async () => {
    const verdict = (await run(permissionHook(safe), 'ls')) as { decision: string; reason: string };
    expect(verdict.decision).toBe('deny');
    expect(verdict.reason).toContain('no approver');
  });

  it('passes asks to onAsk and honours its answer (and fails closed when it throws)', async () => {
    const seen: string[] = [];
    const approve = permissionHook(safe, (ask) => {
      seen.push(ask.subject);
      return ask.subject.startsWith('ls');
    });
    expect(await run(approve, 'ls -la')).toBeUndefined();
    expect(((await run(approve, 'make')) as { decision: string }).decision).toBe('deny');
    expect(seen).toEqual(['ls -la', 'make']);
    const reasons = permissionHook(safe, () => ({ allow: false, reason: 'not today' }));
    expect(((await run(reasons, 'ls')) as { reason: string }).reason).toContain('not today');
    const broken = permissionHook(safe, () => {
      throw new Error('boom');
    });
    expect(((await run(broken, 'ls')) as { decision: string }).decision).toBe('deny');
  });

  it('never asks for a denied command', async () => {
    let asked = false;
    const hook = permissionHook(safe, () => {
      asked = true;
      return true;
    });
    expect(((await run(hook, 'rm -rf .')) as { decision: string }).decision).toBe('deny');
    expect(asked).toBe(false);
  });
});
