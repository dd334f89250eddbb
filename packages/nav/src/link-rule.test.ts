// The `linkRule` option: the gate's walk of the path asks it where a link leads, before any file is read.
import { expectLinkRuleBinds, useLinkedSecretsWorkspace } from '@bough/test-utils';
import type { LinkRule } from '@bough/workspace';
import { it } from 'vitest';
import { handleCodeNav } from './handle-nav.js';
import type { NavInput } from './schema.js';

const workspace = useLinkedSecretsWorkspace();

it('refuses a path that reaches a place the link rule denies', async () => {
  const ws = workspace();
  const nav = (request: NavInput) => (path: string, linkRule?: LinkRule) =>
    handleCodeNav({ ...request, path }, { workspaceRoot: ws.root, ...(linkRule ? { linkRule } : {}) });
  await expectLinkRuleBinds(ws, nav({ action: 'outline', path: '' }), ['pub/s.py', '<root>/secrets/s.py'], false);
  const references = nav({ action: 'find_references', path: '', symbol: 'leak' });
  await expectLinkRuleBinds(ws, references, ['pub/deep', '<root>/secrets/deep'], false);
});
