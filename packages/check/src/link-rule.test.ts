// The `linkRule` option: each checked path's walk through the gate asks it where a link leads, before any check runs.
import { expectLinkRuleBinds, useLinkedSecretsWorkspace } from '@bough/test-utils';
import type { LinkRule } from '@bough/workspace';
import { it } from 'vitest';
import { handleCodeCheck } from './handle-check.js';

const workspace = useLinkedSecretsWorkspace();

it('refuses a path that reaches a place the link rule denies', async () => {
  const ws = workspace();
  const check = (path: string, linkRule?: LinkRule) =>
    handleCodeCheck(
      { paths: ['src/a.py', path], tool: 'ruff' },
      { workspaceRoot: ws.root, ...(linkRule ? { linkRule } : {}) },
    );
  await expectLinkRuleBinds(ws, check, ['pub/s.py', 'pub/deep', '<root>/secrets/s.py'], false);
});
