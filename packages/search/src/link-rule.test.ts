// The `linkRule` option: the gate's walk of a searched path asks it where a link leads; and ripgrep itself follows no
// link while it searches a directory, so nothing behind one is matched or listed.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectLinkRuleBinds, LINKED_CANARY, useLinkedSecretsWorkspace } from '@bough/test-utils';
import type { LinkRule } from '@bough/workspace';
import { expect, it } from 'vitest';
import { handleSearch } from './handle-search.js';
import type { SearchInput } from './schema.js';

const workspace = useLinkedSecretsWorkspace();

const search = (request: SearchInput, linkRule?: LinkRule) =>
  handleSearch(request, { workspaceRoot: workspace().root, ...(linkRule ? { linkRule } : {}) });

it('refuses a grep or find whose path reaches a place the link rule denies', async () => {
  const ws = workspace();
  const grep = (path: string, rule?: LinkRule) => search({ action: 'grep', pattern: 'CANARY', path }, rule);
  await expectLinkRuleBinds(ws, grep, ['pub/deep', 'pub/s.py', '<root>/secrets/deep']);
  const find = (path: string, rule?: LinkRule) => search({ action: 'find', pattern: '*.py', path }, rule);
  await expectLinkRuleBinds(ws, find, ['pub/deep', '<root>/secrets'], false);
});

it('follows no link inside a searched directory: ripgrep is never given -L', async () => {
  const ws = workspace();
  // A ripgrep that notes its arguments, then runs the real one.
  const { rgPath: real } = (await import('@vscode/ripgrep')) as { rgPath: string };
  const log = join(ws.base, 'rg-args.log');
  const rgPath = join(ws.base, 'rg');
  writeFileSync(rgPath, `#!/bin/sh\nprintf '%s\\n' "$@" >> '${log}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
  const grep = JSON.stringify(
    await handleSearch({ action: 'grep', pattern: 'CANARY' }, { workspaceRoot: ws.root, rgPath }),
  );
  expect(grep).toContain('secrets/deep/d.py');
  expect(grep).toContain(LINKED_CANARY);
  expect(grep).not.toContain('pub/');
  const find = JSON.stringify(
    await handleSearch({ action: 'find', pattern: '*.py' }, { workspaceRoot: ws.root, rgPath }),
  );
  expect(find).toContain('secrets/s.py');
  expect(find).not.toContain('pub/');
  const args = readFileSync(log, 'utf8').split('\n');
  expect(args).toContain('--files');
  for (const follow of ['-L', '--follow']) expect(args).not.toContain(follow);
});
