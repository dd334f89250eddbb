// The set-up: `permissions: 'safe'`, `commandSandbox: 'required'`, no approver. Through the toolkit, no request
// field turns the OS sandbox off, deny rules given as bash options reach the mounts, and the git attack of issue 34
// leaves nothing the host's git would run.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sandboxSupport } from '@bough/process';
import { GIT_ID, initRepo, makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';

const support = sandboxSupport();
if (!support.available)
  console.warn(`SKIPPED toolkit sandbox tests: bubblewrap cannot sandbox here: ${support.reason}`);

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\n', 'private/notes.txt': 'DENY-CANARY\n' });
  initRepo(ws.root);
});
afterEach(() => ws.cleanup());

const branch = () =>
  toolkitBranch(ws.root, {
    tools: ['bash', 'jobs'],
    permissions: 'safe',
    commandSandbox: 'required',
    toolOptions: { bash: { denyRead: ['private/**'] } },
  });

describe.skipIf(!support.available)('toolkit commands in the OS sandbox', () => {
  it('refuses every request field that would loosen the sandbox', async () => {
    const b = branch();
    for (const extra of [{ sandbox: 'off' }, { network: true }, { denyRead: [] }, { permissions: 'allow_all' }]) {
      const out = await call(b, 'bash', { command: `cat ${join(ws.outside, 'secret.txt')}`, ...extra });
      expect(out.success, JSON.stringify(extra)).toBe(false);
      expect(JSON.stringify(out)).not.toMatch(/OUTSIDE-SECRET-CANARY/);
    }
    for (const extra of [{ sandbox: 'off' }, { command: 'true' }]) {
      const out = await call(b, 'jobs', { action: 'list', ...extra });
      expect(out).toMatchObject({ success: false });
    }
  });

  it('hides deny-read paths given as bash options', async () => {
    const out = await call(branch(), 'bash', { command: 'cat private/notes.txt' });
    expect(out).toMatchObject({ success: true, sandboxed: true });
    expect(JSON.stringify(out)).not.toMatch(/DENY-CANARY/);
  });

  it('leaves no hook, fsmonitor or commondir behind for the host git (the attack of issue 34)', async () => {
    const marker = join(ws.base, 'MARKER');
    const b = branch();
    // The safe preset refuses chmod, so the hooks are made executable by copying git's sample hooks first.
    const plant = (dir: string) =>
      `cp ${dir}/hooks/pre-commit.sample ${dir}/hooks/pre-commit; printf "#!/bin/sh\\ntouch ${marker}\\n" > ${dir}/hooks/pre-commit`;
    const script = [
      'mv .git .git-old; cp -a .git-old .git',
      plant('.git'),
      `git config core.fsmonitor "touch ${marker}"`,
      'cp -a .git evil; echo ../evil > .git/commondir',
      plant('evil'),
    ].join('; ');
    const out = await call(b, 'bash', { command: `sh -c '${script}'` });
    expect(out).toMatchObject({ success: true, sandboxed: true });
    for (const args of [['status'], ['commit', '-q', '--allow-empty', '-m', 'probe']]) {
      execFileSync('git', [...GIT_ID, ...args], { cwd: ws.root, stdio: 'ignore' });
    }
    expect(existsSync(marker)).toBe(false);
  });
});
