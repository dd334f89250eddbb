import type { PermissionAsk } from '@bough/policy';
import { sandboxSupport } from '@bough/process';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { DEFAULT_PROTECTED, type ProtectedNamePolicy } from '@bough/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';
import { protectedWordOf } from './protected-command.js';

const policy: ProtectedNamePolicy = { ...DEFAULT_PROTECTED, names: [...DEFAULT_PROTECTED.names, '.bough'] };
const CANARY = 'SESSION-CANARY';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({
    'main.ts': 'export const token = "public";\n',
    '.bough/x': `${CANARY}\n`,
    '.bough/state.ts': `export const token: number = "${CANARY}";\n`,
    '.env': `${CANARY}\n`,
  });
});
afterEach(() => ws.cleanup());

describe('protectedWordOf', () => {
  it('finds protected names in words, paths, assignments and shell scripts', () => {
    expect(protectedWordOf('cat .env')).toBe('.env');
    expect(protectedWordOf('cat .bough/x', policy)).toBe('.bough');
    expect(protectedWordOf("sh -c 'cat ./.bough/sessions/a.json'", policy)).toBe('.bough');
    expect(protectedWordOf('tool --config=secrets/id_rsa')).toBe('id_rsa');
    expect(protectedWordOf('ls -la src')).toBeUndefined();
    expect(protectedWordOf('cat .env.example')).toBeUndefined();
    expect(protectedWordOf('cat .bough/x')).toBeUndefined();
  });
});

describe('one protected-name policy for the whole toolkit', () => {
  it('without the OS sandbox, a command naming a protected path is asked about, or refused without an approver', async () => {
    const refused = toolkitBranch(ws.root, { tools: ['bash'], protectedNames: policy, commandSandbox: 'off' });
    const out = await call(refused, 'bash', { command: 'cat .bough/x' });
    expect(out).toMatchObject({ success: false, error_code: 'denied' });
    expect(JSON.stringify(out)).not.toContain(CANARY);
    expect(await call(refused, 'bash', { command: 'echo fine' })).toMatchObject({ stdout: 'fine\n' });

    const asks: PermissionAsk[] = [];
    const approved = toolkitBranch(ws.root, {
      tools: ['bash'],
      protectedNames: policy,
      onAsk: (ask) => {
        asks.push(ask);
        return true;
      },
    });
    expect(await call(approved, 'bash', { command: 'cat .bough/x' })).toMatchObject({ stdout: `${CANARY}\n` });
    expect(asks.map((ask) => ask.rule)).toEqual(['protected path .bough']);
  });

  it('refuses outright under the safe preset, without asking', async () => {
    const asks: PermissionAsk[] = [];
    const branch = toolkitBranch(ws.root, {
      tools: ['bash'],
      permissions: 'safe',
      protectedNames: policy,
      onAsk: (ask) => {
        asks.push(ask);
        return true;
      },
    });
    expect(await call(branch, 'bash', { command: 'cat .env' })).toMatchObject({ error_code: 'denied' });
    expect(asks).toEqual([]);
  });

  it('code_nav, ast_search, code_check, search and reader all skip or refuse what the toolkit policy protects', async () => {
    const branch = toolkitBranch(ws.root, {
      tools: ['reader', 'search', 'code_check', 'code_nav', 'ast_search'],
      protectedNames: policy,
    });
    const nav = await call(branch, 'code_nav', { action: 'find_definition', symbol: 'token', path: '' });
    const ast = await call(branch, 'ast_search', { pattern: 'export const $A = $B', lang: 'typescript' });
    const check = await call(branch, 'code_check', { paths: [] });
    const grep = await call(branch, 'search', { action: 'grep', pattern: CANARY });
    const read = await call(branch, 'reader', { action: 'read', path: '.bough/x' });
    for (const result of [nav, ast, check, grep, read]) expect(JSON.stringify(result)).not.toContain(CANARY);
    expect((nav.items as { file: string }[]).map((item) => item.file)).toEqual(['main.ts']);
    expect((ast.matches as { file: string }[]).map((match) => match.file)).toEqual(['main.ts']);
    expect(check).toMatchObject({ success: true, total: 0 });
    expect(read).toMatchObject({ success: false });
  });

  it.skipIf(!sandboxSupport().available)('inside the OS sandbox the command runs but sees nothing there', async () => {
    const branch = toolkitBranch(ws.root, { tools: ['bash'], protectedNames: policy, commandSandbox: 'required' });
    const out = await call(branch, 'bash', { command: 'cat .bough/x' });
    expect(out).toMatchObject({ sandboxed: true });
    expect(out.return_code).not.toBe(0);
    expect(JSON.stringify(out)).not.toContain(CANARY);
    expect(await call(branch, 'bash', { command: 'ls .bough' })).toMatchObject({ sandboxed: true, stdout: '' });
  });
});
