// `RunOptions.linkRule`: the gate's walk of `cwd` asks it where a link leads; a refused cwd runs nothing.
import { expectLinkRuleBinds, TEST_BASE_ENV, useLinkedSecretsWorkspace } from '@bough/test-utils';
import type { LinkRule } from '@bough/workspace';
import { it } from 'vitest';
import { runProcess } from './run-process.js';

const workspace = useLinkedSecretsWorkspace();

it('refuses a cwd that reaches a place the link rule denies', async () => {
  const ws = workspace();
  const run = (cwd: string, linkRule?: LinkRule) =>
    runProcess(['cat', 'd.py'], {
      cwd,
      workspaceRoot: ws.root,
      baseEnv: TEST_BASE_ENV,
      ...(linkRule ? { linkRule } : {}),
    });
  await expectLinkRuleBinds(ws, run, ['pub/deep', '<root>/secrets/deep']);
});
