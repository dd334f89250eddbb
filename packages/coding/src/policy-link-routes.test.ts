import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedChatModel, textReply } from '@bough/core';
import type { PermissionPolicy } from '@bough/policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';

// One deny rule, every path-taking tool, every route to the denied place: named directly, through a link inside the
// workspace, through a link to the root, spelled from the real root while the toolkit knows the root by a linked name,
// spelled from that linked name, and through a link to outside. Each tool's own gate applies the policy's rule where
// its walk follows a link (the permission check matches paths as asked), so every route gets the same answer.
const CANARY = 'LINKED-SECRET-CANARY';
const OUTSIDE = 'OUTSIDE-CANARY';
const POLICY: PermissionPolicy = { allow: { '*': ['*'] }, deny: { '*': ['secrets/**'] } };

let base: string;
let real: string;
let alias: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'policy-link-routes-')));
  real = join(base, 'real');
  const outside = join(base, 'outside');
  for (const [dir, text] of [
    [join(real, 'secrets'), CANARY],
    [outside, OUTSIDE],
  ] as const) {
    mkdirSync(join(dir, 'deep'), { recursive: true });
    writeFileSync(join(dir, 'key.txt'), `${text}\n`);
    writeFileSync(join(dir, 's.py'), `def leak():\n    print("${text}")\n`);
    writeFileSync(join(dir, 'deep', 'd.py'), `def leak():\n    print("${text}")\n`);
  }
  mkdirSync(join(real, 'src'));
  writeFileSync(join(real, 'src', 'a.py'), 'print(1)\n');
  symlinkSync(join(real, 'secrets'), join(real, 'pub'));
  symlinkSync('.', join(real, 'self'));
  symlinkSync(outside, join(real, 'out'));
  alias = join(base, 'ws');
  symlinkSync(real, alias);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Each route: how it spells the denied directory, and the refusal it must get. */
const ROUTES: readonly (readonly [string, () => string, string])[] = [
  ['named directly', () => 'secrets', 'denied'],
  ['through a link inside the workspace', () => 'pub', 'denied'],
  ['through a link to the root', () => 'self/secrets', 'denied'],
  ['absolute, from the real root', () => join(real, 'secrets'), 'denied'],
  ['absolute, from the linked root', () => join(alias, 'secrets'), 'denied'],
  ['through a link to outside', () => 'out', 'outside_workspace'],
];

/** Every path-taking tool and action, given the spelling of the denied directory. */
const CALLS: readonly (readonly [string, (dir: string) => Record<string, unknown>])[] = [
  ['reader', (d) => ({ action: 'read', path: `${d}/key.txt` })],
  ['reader', (d) => ({ action: 'list_dir', path: `${d}/deep` })],
  ['editor', (d) => ({ action: 'write', file_path: `${d}/new.txt`, content: 'x' })],
  ['search', (d) => ({ action: 'grep', pattern: 'CANARY', path: `${d}/deep` })],
  ['search', (d) => ({ action: 'grep', pattern: 'CANARY', path: `${d}/key.txt` })],
  ['search', (d) => ({ action: 'find', pattern: '*', path: `${d}/deep` })],
  ['code_nav', (d) => ({ action: 'outline', path: `${d}/s.py` })],
  ['code_nav', (d) => ({ action: 'find_references', path: `${d}/deep`, symbol: 'leak' })],
  ['code_check', (d) => ({ paths: ['src/a.py', `${d}/s.py`] })],
  ['ast_search', (d) => ({ pattern: 'print($A)', path: `${d}/deep` })],
  ['bash', (d) => ({ command: 'cat d.py', cwd: `${d}/deep` })],
  ['bash', (d) => ({ command: 'cat d.py', cwd: `${d}/deep`, background: true })],
  ['subagent', (d) => ({ instruction: 'read d.py', cwd: `${d}/deep` })],
];

function branchFor(permissions: PermissionPolicy) {
  const model = new ScriptedChatModel(Array.from({ length: 20 }, () => textReply('done')));
  const tools = ['reader', 'editor', 'search', 'code_nav', 'code_check', 'ast_search', 'bash', 'jobs', 'subagent'];
  return toolkitBranch(alias, { tools, permissions, notify: false, diagnostics: false }, { model });
}

/** Nothing under the denied directory changed and nothing was created outside. */
function untouched(): void {
  expect(readdirSync(join(real, 'secrets')).sort()).toEqual(['deep', 'key.txt', 's.py']);
  expect(existsSync(join(base, 'outside', 'new.txt'))).toBe(false);
}

describe.each(ROUTES)('a deny rule binds every path-taking tool: %s', (_route, dir, code) => {
  const branch = () => branchFor(POLICY);
  it.each(CALLS)('%s %#: refused, nothing shown, read or written', async (tool, args) => {
    const request = args(dir());
    const out = await call(branch(), tool, request);
    const shown = JSON.stringify(out);
    expect(out, `${tool} ${JSON.stringify(request)}`).toMatchObject({ success: false, error_code: code });
    expect(shown).not.toContain(CANARY);
    expect(shown).not.toContain(OUTSIDE);
    untouched();
  });
});

describe('one place decides where a link leads', () => {
  it('is decided by the gate that walks the path, not by a second walk in the permission check', async () => {
    const branch = branchFor(POLICY);
    for (const [tool, args] of CALLS) {
      const out = await call(branch, tool, args('pub'));
      // The gate names the link and the real place it reached; the permission check would name only the rule.
      expect(String(out.error), tool).toContain('goes through a symbolic link to "secrets/');
    }
  });

  it('lets every row reach its tool without the rule (each refusal above comes from the rule)', async () => {
    const branch = branchFor({ allow: { '*': ['*'] } });
    for (const [, dir] of ROUTES.slice(1, 5)) {
      for (const [tool, args] of CALLS.filter(([tool]) => tool !== 'subagent' && tool !== 'editor')) {
        const out = await call(branch, tool, args(dir()));
        expect(out.error_code, `${tool} ${JSON.stringify(args(dir()))}`).not.toBe('denied');
      }
    }
  });

  it('searches of the whole workspace follow no link into the denied place (ripgrep runs without -L)', async () => {
    const branch = branchFor(POLICY);
    for (const request of [
      { action: 'grep', pattern: 'CANARY' },
      { action: 'find', pattern: '*.py' },
    ]) {
      const out = JSON.stringify(await call(branch, 'search', request));
      expect(out).not.toContain(CANARY);
      expect(out).not.toContain(OUTSIDE);
      expect(out).not.toMatch(/"(pub|self|out|secrets)\//);
    }
  });
});
