// The `linkRule` option: the gate's walk of the searched path asks it where a link leads, before any file is parsed.
import { expectLinkRuleBinds, useLinkedSecretsWorkspace } from '@bough/test-utils';
import type { LinkRule } from '@bough/workspace';
import { it } from 'vitest';
import { handleAstSearch } from './handle-ast-search.js';

const workspace = useLinkedSecretsWorkspace();

it('refuses a path that reaches a place the link rule denies', async () => {
  const ws = workspace();
  const search = (path: string, linkRule?: LinkRule) =>
    handleAstSearch(
      { pattern: 'print($A)', lang: 'python', path },
      { workspaceRoot: ws.root, ...(linkRule ? { linkRule } : {}) },
    );
  await expectLinkRuleBinds(ws, search, ['pub/deep', 'pub/s.py', '<root>/secrets']);
});
