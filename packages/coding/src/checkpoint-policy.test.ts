// The checkpoints tool under a policy with a path deny rule: what a command wrote under a denied path is never stored,
// shown (list, diff) or written back by a restore, and a restore or diff naming such a path is refused.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PermissionPolicy } from '@bough/policy';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';

const policy: PermissionPolicy = { allow: { '*': ['*'] }, deny: { '*': ['secrets/**'] } };

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\n', 'secrets/old': 'OLD-CANARY\n' });
});
afterEach(() => ws.cleanup());

const branch = () =>
  toolkitBranch(ws.root, {
    tools: ['bash'],
    permissions: policy,
    onAsk: () => true,
    checkpoints: { stateDir: join(ws.base, 'state') },
  });

const py = (script: string) => ({ command: `/usr/bin/python3 -c "${script}"` });

describe('checkpoints under a path deny rule', () => {
  it('never stores, shows or restores a denied path', async () => {
    const b = branch();
    const wrote = await call(
      b,
      'bash',
      py("open('secrets/k','w').write('KEY-'+'CANARY'); open('a.txt','w').write('beta')"),
    );
    expect(wrote).toMatchObject({ success: true, return_code: 0 });
    writeFileSync(join(ws.root, 'secrets/old'), 'NEW-CANARY\n');
    const list = await call(b, 'checkpoints', { action: 'list' });
    expect(list).toMatchObject({ success: true });
    const checkpoints = list.checkpoints as { id: string; before: string | null; tool?: string }[];
    const byBash = checkpoints.find((c) => c.tool === 'bash');
    expect(byBash).toBeDefined();
    const diff = await call(b, 'checkpoints', { action: 'diff', from: byBash?.id });
    expect(diff).toMatchObject({ success: true });
    expect(diff.diff).toMatch(/beta/);
    // The request (the command as the model wrote it) is shown; no file under secrets/ is, nor its content.
    const shown = JSON.stringify([checkpoints.map((c) => ({ ...c, request: undefined })), diff]);
    expect(shown, shown).not.toMatch(/KEY-CANARY|OLD-CANARY|secrets/);

    const restore = await call(b, 'checkpoints', { action: 'restore', to: byBash?.before, force: true });
    expect(restore).toMatchObject({ success: true });
    expect(readFileSync(join(ws.root, 'a.txt'), 'utf8')).toBe('alpha\n');
    expect(readFileSync(join(ws.root, 'secrets/k'), 'utf8')).toBe('KEY-CANARY');
    expect(readFileSync(join(ws.root, 'secrets/old'), 'utf8')).toBe('NEW-CANARY\n');
  });

  it('refuses a restore or diff that names a denied path', async () => {
    const b = branch();
    await call(b, 'bash', py("open('a.txt','w').write('beta')"));
    const list = await call(b, 'checkpoints', { action: 'list' });
    const [newest] = list.checkpoints as { id: string; before: string }[];
    const restore = await call(b, 'checkpoints', { action: 'restore', to: newest?.before, paths: ['secrets/old'] });
    expect(restore).toMatchObject({ success: false, error_code: 'denied' });
    const diff = await call(b, 'checkpoints', { action: 'diff', from: newest?.id, paths: ['Secrets'] });
    expect(diff).toMatchObject({ success: false, error_code: 'denied' });
    expect(existsSync(join(ws.root, 'secrets/old'))).toBe(true);
  });
});

describe('checkpoints under a preset', () => {
  it('judges list and diff as reads and restore as a change', async () => {
    const b = toolkitBranch(ws.root, {
      tools: ['reader'],
      permissions: 'read_only',
      checkpoints: { stateDir: join(ws.base, 'state') },
    });
    expect(await call(b, 'checkpoints', { action: 'list' })).toMatchObject({ success: true });
    const restore = await call(b, 'checkpoints', { action: 'restore', to: 'abcdef12' });
    expect(restore).toMatchObject({ success: false, error_code: 'denied' });
    expect(String(restore.error)).toMatch(/checkpoints/);
  });
});
