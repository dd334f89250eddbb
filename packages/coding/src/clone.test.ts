import { readFileSync } from 'node:fs';
import { Branch } from '@bough/core';
import { initRepo, makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';
import { STANDARD_SOURCES } from './tool-sources.js';
import { codingToolkit } from './toolkit.js';

const sources = STANDARD_SOURCES;
const tools = ['reader', 'editor', 'context', 'sandbox'];
let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\n' });
});
afterEach(() => ws.cleanup());

const edit = (from: string, to: string) => ({ action: 'edit', file_path: 'a.txt', old_string: from, new_string: to });

describe('clone isolation', () => {
  it('gives the clone fresh tools and an empty file state: the source read does not authorise the clone', async () => {
    const source = toolkitBranch(ws.root, { tools, notify: false }, { sources });
    await call(source, 'reader', { action: 'read', path: 'a.txt' });
    const clone = source.clone();
    for (const name of tools) expect(clone.registry.get(name)).not.toBe(source.registry.get(name));
    expect(await call(clone, 'editor', edit('alpha', 'clone'))).toMatchObject({ error_code: 'not_read' });
    await call(clone, 'reader', { action: 'read', path: 'a.txt' });
    expect((await call(clone, 'editor', edit('alpha', 'clone'))).success).toBe(true);
    // the source's evidence is of the old content: its edit is now stale, and it never saw the clone's read
    expect(await call(source, 'editor', edit('clone', 'source'))).toMatchObject({ error_code: 'stale_read' });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('clone\n');
  });

  it("binds the clone's context tool to the clone only", async () => {
    const source = toolkitBranch(ws.root, { tools, notify: false }, { sources });
    await call(source, 'reader', { action: 'read', path: 'a.txt' });
    const clone = source.clone();
    const before = source.activeIds().length;
    await call(clone, 'context', { action: 'evict_action_results', keep_last: 0 });
    expect(source.activeIds()).toHaveLength(before);
    expect((await call(source, 'editor', edit('alpha', 'still-authorised'))).success).toBe(true);
  });

  it("does not share the source's sandbox", async () => {
    initRepo(ws.root);
    const source = toolkitBranch(
      ws.root,
      { tools, notify: false, sandbox: { identity: { name: 't', email: 't@x.invalid' } } },
      { sources },
    );
    expect((await call(source, 'sandbox', { action: 'create' })).success).toBe(true);
    const clone = source.clone();
    expect(await call(clone, 'sandbox', { action: 'diff' })).toMatchObject({ error_code: 'no_sandbox' });
    await call(clone, 'editor', { action: 'write', file_path: 'clone-only.txt', content: 'c\n' });
    expect(readFileSync(ws.path('clone-only.txt'), 'utf8')).toBe('c\n');
    const diff = await call(source, 'sandbox', { action: 'diff' });
    expect(diff.files_changed).toEqual([]);
    expect((await call(source, 'sandbox', { action: 'discard' })).success).toBe(true);
  });

  it('builds independently for two branches from one provider', async () => {
    const provider = codingToolkit({ tools: ['reader', 'editor'] }, sources);
    const one = new Branch({ workspaceRoot: ws.root });
    const two = new Branch({ workspaceRoot: ws.root });
    one.registerTools(provider);
    two.registerTools(provider);
    await call(one, 'reader', { action: 'read', path: 'a.txt' });
    expect(await call(two, 'editor', edit('alpha', 'x'))).toMatchObject({ error_code: 'not_read' });
    const note = (await call(one, 'editor', edit('alpha', 'x'))).system_note as string;
    expect(note).toContain('1 files tracked');
    expect(
      ((await call(two, 'reader', { action: 'read', path: 'a.txt' })).system_note as string).match(/\[context/g),
    ).toHaveLength(1);
  });
});
