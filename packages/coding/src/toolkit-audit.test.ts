import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Branch, type PostHook, type Tool, ToolRegistry } from '@bough/core';
import { DEFAULT_SEARCH_LIMITS } from '@bough/search';
import { initRepo, makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';
import { STANDARD_SOURCES } from './tool-sources.js';
import { codingToolkit } from './toolkit.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\n', 'bad.py': 'import os\n' });
});
afterEach(() => ws.cleanup());

const hooksOf = (branch: Branch, name: string) => (branch.registry.get(name) as Tool).hooks;

describe('building again shares nothing with earlier builds', () => {
  it('does not accumulate hooks, and build 1’s closures never run for build 2', async () => {
    const seen: string[] = [];
    const userPost: PostHook = ({ tool }) => void seen.push(tool.name);
    const provider = codingToolkit({ tools: ['bash'], hooks: { post: { '*': userPost } } });
    const builds = [1, 2, 3].map(() => {
      const branch = new Branch({ workspaceRoot: ws.root });
      branch.registerTools(provider);
      return branch;
    });
    const [one, two, three] = builds as [Branch, Branch, Branch];
    const lengths = builds.map((branch) => hooksOf(branch, 'bash')?.post?.length);
    expect(new Set(lengths).size).toBe(1);
    // the only hook two builds share is the caller's own function; every toolkit closure is per build
    const shared = hooksOf(one, 'bash')?.post?.filter((hook) => hooksOf(three, 'bash')?.post?.includes(hook));
    expect(shared).toEqual([userPost]);
    // failures on build 1 feed build 1's nudge engine only
    for (let i = 0; i < 3; i += 1) await call(one, 'bash', { command: 'false' });
    const note = (await call(two, 'bash', { command: 'false' })).system_note as string;
    expect(note).not.toContain('in a row failed');
    expect(note.match(/\[context/g)).toHaveLength(1);
    expect(seen).toEqual(['bash', 'bash', 'bash', 'bash']);
    expect((await call(one, 'bash', { command: 'false' })).system_note).not.toContain('in a row failed'); // cooldown
  });

  it('a clone rebuilds: its calls reach neither the source’s hooks nor its nudge history', async () => {
    const source = toolkitBranch(ws.root, { tools: ['bash'] });
    for (let i = 0; i < 2; i += 1) await call(source, 'bash', { command: 'false' });
    const clone = source.clone();
    expect(hooksOf(clone, 'bash')?.post?.[0]).not.toBe(hooksOf(source, 'bash')?.post?.[0]);
    // the clone's first failure is its first: no streak inherited from the source
    expect((await call(clone, 'bash', { command: 'false' })).system_note).not.toContain('in a row failed');
    // and the source's streak is not advanced by the clone's calls
    expect((await call(source, 'bash', { command: 'false' })).system_note).toContain('in a row failed');
  });
});

describe('code_check with no paths checks the workspace root', () => {
  it.each([{}, { paths: [] }])('%j checks the workspace files, not the process directory', async (request) => {
    const branch = toolkitBranch(ws.root, { tools: ['code_check'], notify: false });
    const out = (await call(branch, 'code_check', request)) as {
      status: string;
      diagnostics: { file: string }[];
      files_checked: number;
    };
    expect(out.status).toBe('diagnostics');
    expect(out.diagnostics.map((d) => d.file)).toEqual(['bad.py']);
    expect(out.files_checked).toBe(1);
  });
});

describe('an active sandbox redirects every file, shell and code tool', () => {
  it('reader, editor, bash, search, code_check, code_nav and ast_search all work in the worktree', async () => {
    initRepo(ws.root);
    const branch = toolkitBranch(ws.root, {
      tools: ['reader', 'editor', 'bash', 'search', 'code_check', 'code_nav', 'ast_search', 'sandbox'],
      notify: false,
      sandbox: { identity: { name: 't', email: 't@x.invalid' } },
    });
    const made = await call(branch, 'sandbox', { action: 'create' });
    const worktree = made.worktree as string;
    const file = 'sb.py';
    const written = await call(branch, 'editor', {
      action: 'write',
      file_path: file,
      content: 'import sys\n\n\ndef only_here():\n    return 1\n',
    });
    expect(written.path).toBe(join(worktree, file));
    expect(existsSync(ws.path(file))).toBe(false);
    expect(await call(branch, 'reader', { action: 'read', path: file })).toMatchObject({
      success: true,
      path: join(worktree, file),
    });
    expect((await call(branch, 'bash', { command: 'ls' })).stdout).toContain(file);
    expect((await call(branch, 'search', { action: 'grep', pattern: 'only_here' })).content).toContain(file);
    const checked = (await call(branch, 'code_check', {})) as { diagnostics: { file: string }[] };
    expect(checked.diagnostics.map((d) => d.file).sort()).toEqual(['bad.py', file]);
    expect(JSON.stringify(await call(branch, 'code_nav', { action: 'outline', path: file }))).toContain('only_here');
    expect(JSON.stringify(await call(branch, 'ast_search', { pattern: 'def only_here(): $$$' }))).toContain(file);
    expect((await call(branch, 'sandbox', { action: 'discard' })).success).toBe(true);
    expect(await call(branch, 'reader', { action: 'read', path: file })).toMatchObject({ success: false });
    expect((await call(branch, 'bash', { command: 'ls' })).stdout).not.toContain(file);
  });
});

describe('defaults are the standalone defaults (one rule, shared)', () => {
  const standalone = async (name: string, request: unknown) => {
    const source = STANDARD_SOURCES.find((s) => s.name === name);
    const registry = new ToolRegistry();
    registry.register(source?.make(ws.root, { branch: new Branch() }, {}) as Tool);
    return (await registry.invoke(name, request)).output as Record<string, unknown>;
  };

  it('search: grep shows 50 and find 100 when max_results is omitted, in both', async () => {
    for (let i = 0; i < 130; i += 1) ws.write(`many/f${String(i).padStart(3, '0')}.txt`, 'needle\n');
    const branch = toolkitBranch(ws.root, { tools: ['search'], notify: false });
    for (const [action, pattern, expected] of [
      ['grep', 'needle', DEFAULT_SEARCH_LIMITS.grepResults],
      ['find', '*.txt', DEFAULT_SEARCH_LIMITS.findResults],
    ] as const) {
      const alone = await standalone('search', { action, pattern });
      const composed = await call(branch, 'search', { action, pattern });
      expect(composed).toMatchObject({ success: true, shown: expected, truncated: true });
      expect({ ...composed, content: undefined }).toEqual({ ...alone, content: undefined });
    }
    expect([DEFAULT_SEARCH_LIMITS.grepResults, DEFAULT_SEARCH_LIMITS.findResults]).toEqual([50, 100]);
  });

  it('bash: an explicit timeout of 0 means the default in both', async () => {
    const branch = toolkitBranch(ws.root, { tools: ['bash'], notify: false });
    const alone = await standalone('bash', { command: 'echo ok', timeout: 0 });
    const composed = await call(branch, 'bash', { command: 'echo ok', timeout: 0 });
    expect(composed).toMatchObject({ return_code: 0, timed_out: false, timeout_ms: 30_000 });
    expect(composed.timeout_ms).toBe(alone.timeout_ms);
  });
});
