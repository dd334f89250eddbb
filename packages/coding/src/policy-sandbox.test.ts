// The permission policy's path deny rules reach the OS sandbox's mounts: a command cannot read or write what the
// file tools may not, and a rule the sandbox cannot express is refused at setup (required) or named (auto).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigurationError } from '@bough/core';
import type { PermissionPolicy } from '@bough/policy';
import { sandboxSupport } from '@bough/process';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';
import { policySandbox, sandboxGlob } from './sandbox-deny.js';
import { codingToolkit } from './toolkit.js';

const support = sandboxSupport();
const policy = (deny: Record<string, string[]>): PermissionPolicy => ({ allow: { '*': ['*'] }, deny });

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\n', 'secrets/x': 'POLICY-CANARY\n' });
});
afterEach(() => ws.cleanup());

describe('policy deny rules as sandbox globs', () => {
  it('translates the exact forms and names the others', () => {
    expect(sandboxGlob('secrets/**')).toBe('[sS][eE][cC][rR][eE][tT][sS]/**');
    expect(sandboxGlob('*.pem')).toBe('**/*.[pP][eE][mM]');
    expect(sandboxGlob('.env')).toBe('.[eE][nN][vV]');
    for (const rule of ['a*b', 'src/*/x', 'file?.txt', '[ab].txt', '/etc/**', '../x', '{a,b}']) {
      expect(sandboxGlob(rule), rule).toHaveProperty('why');
    }
  });

  it('refuses a rule it cannot express when the sandbox is required, and names it under auto', () => {
    const odd = policy({ reader: ['src/*/secret'] });
    expect(() => policySandbox(odd, 'required', () => true)).toThrow(ConfigurationError);
    expect(() => codingToolkit({ permissions: odd, commandSandbox: 'required' })).toThrow(/src\/\*\/secret/);
    expect(() => codingToolkit({ permissions: odd, toolOptions: { bash: { sandbox: 'required' } } })).toThrow(
      ConfigurationError,
    );
    expect(policySandbox(odd, 'auto', () => true).note).toMatch(/src\/\*\/secret/);
    expect(policySandbox(policy({ '*': ['secrets/**'] }), 'auto', () => false).note).toMatch(/not in effect/);
    expect(policySandbox(policy({ '*': ['secrets/**'] }), 'off', () => true)).toEqual({});
  });
});

describe.skipIf(!support.available)('policy deny rules inside the OS sandbox', () => {
  it('keeps a command from reading or writing what the policy denies', async () => {
    const b = toolkitBranch(ws.root, {
      tools: ['bash'],
      permissions: policy({ '*': ['secrets/**'] }),
      commandSandbox: 'required',
    });
    const read = await call(b, 'bash', { command: 'cat secrets/x' });
    expect(read).toMatchObject({ success: true, sandboxed: true });
    expect(read.return_code).not.toBe(0);
    expect(JSON.stringify(read)).not.toMatch(/POLICY-CANARY/);
    for (const script of ["open('secrets/y','w').write('planted')", "open('secrets/x','w').write('planted')"]) {
      const write = await call(b, 'bash', { command: `/usr/bin/python3 -c "${script}"` });
      expect(write, JSON.stringify(write)).toMatchObject({ success: true, sandboxed: true });
      expect(write.return_code).not.toBe(0);
    }
    expect(readdirSync(join(ws.root, 'secrets'))).toEqual(['x']);
    expect(readFileSync(join(ws.root, 'secrets/x'), 'utf8')).toBe('POLICY-CANARY\n');
  });

  it('names a rule it cannot mount in each command result under auto', async () => {
    const b = toolkitBranch(ws.root, {
      tools: ['bash'],
      permissions: policy({ '*': ['secrets/**', 'src/*/key'] }),
      commandSandbox: 'auto',
    });
    const out = await call(b, 'bash', { command: 'cat secrets/x' });
    expect(out).toMatchObject({ success: true, sandboxed: true });
    expect(JSON.stringify(out)).not.toMatch(/POLICY-CANARY/);
    expect(String(out.system_note)).toMatch(/src\/\*\/key/);
  });
});
