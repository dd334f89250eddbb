import { Branch, ConfigurationError } from '@bough/core';
import { initRepo, makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';
import { STANDARD_SOURCES } from './tool-sources.js';
import { ALL_CODING_TOOLS, codingToolkit, DEFAULT_CODING_TOOLS } from './toolkit.js';

const sources = STANDARD_SOURCES;
let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\n' });
});
afterEach(() => ws.cleanup());

describe('codingToolkit configuration', () => {
  it('lists the tools in a fixed order, sandbox and subagent opt-in', () => {
    expect(ALL_CODING_TOOLS).toEqual([
      'reader',
      'editor',
      'bash',
      'search',
      'code_check',
      'code_nav',
      'ast_search',
      'context',
      'sandbox',
      'subagent',
      'jobs',
    ]);
    expect(DEFAULT_CODING_TOOLS).toEqual(ALL_CODING_TOOLS.slice(0, 8));
    const branch = toolkitBranch(ws.root, { tools: ['subagent', 'bash', 'reader'] }, { sources });
    expect(branch.tools.map((tool) => tool.name)).toEqual(['reader', 'bash', 'subagent']);
    expect(branch.registry.providerOf('bash')?.scope).toBe('branch');
  });

  it('builds the eight default tools from the standalone packages', () => {
    const branch = new Branch({ workspaceRoot: ws.root });
    branch.registerTools(codingToolkit());
    expect(branch.tools.map((tool) => tool.name)).toEqual([...DEFAULT_CODING_TOOLS]);
    expect(branch.tools.every((tool) => tool.scope === 'branch')).toBe(true);
  });

  it('rejects unknown tool names and presets with the valid choices', () => {
    expect(() => codingToolkit({ tools: ['reader', 'shell'] })).toThrow(ConfigurationError);
    expect(() => codingToolkit({ tools: ['shell'] })).toThrow(/shell.*Valid names: reader, editor/);
    expect(() => codingToolkit({ permissions: 'yolo' as never })).toThrow(
      /Valid: allow_all, deny_all, read_only, safe/,
    );
  });

  it('needs a workspace root from the options or the branch', () => {
    expect(() => new Branch().registerTools(codingToolkit({ tools: ['bash'] }, sources))).toThrow(/workspaceRoot/);
    const branch = new Branch();
    branch.registerTools(codingToolkit({ tools: ['bash'], workspaceRoot: ws.root }, sources));
    expect(branch.registry.has('bash')).toBe(true);
  });
});

describe('policy through the real tools', () => {
  it('asks onAsk for bash and editor under safe and runs only what it approves', async () => {
    const asked: string[] = [];
    const branch = toolkitBranch(
      ws.root,
      {
        tools: ['bash', 'editor'],
        notify: false,
        permissions: 'safe',
        onAsk: ({ subject }) => {
          asked.push(subject);
          return subject === 'cat a.txt' || subject === 'b.txt';
        },
      },
      { sources },
    );
    expect(await call(branch, 'bash', { command: 'cat a.txt' })).toMatchObject({ stdout: 'alpha\n', return_code: 0 });
    expect(await call(branch, 'bash', { command: 'touch b.txt' })).toMatchObject({ error_code: 'denied' });
    expect(await call(branch, 'bash', { command: 'rm a.txt' })).toMatchObject({ error_code: 'denied' });
    expect((await call(branch, 'editor', { action: 'write', file_path: 'b.txt', content: 'ok' })).success).toBe(true);
    expect(await call(branch, 'editor', { action: 'write', file_path: 'c.txt', content: 'no' })).toMatchObject({
      error_code: 'denied',
    });
    expect(asked).toEqual(['cat a.txt', 'touch b.txt', 'b.txt', 'c.txt']);
  });

  it('read_only refuses edits and shell with a readable failure', async () => {
    const branch = toolkitBranch(
      ws.root,
      { tools: ['reader', 'editor', 'bash'], notify: false, permissions: 'read_only' },
      { sources },
    );
    expect((await call(branch, 'reader', { action: 'read', path: 'a.txt' })).success).toBe(true);
    const refused = await call(branch, 'editor', { action: 'write', file_path: 'a.txt', content: 'x' });
    expect(refused).toMatchObject({ success: false, error_code: 'denied' });
    expect(refused.error).toMatch(/read_only/);
    expect(await call(branch, 'bash', { command: 'ls' })).toMatchObject({ error_code: 'denied' });
  });
});

describe('nudges through the toolkit', () => {
  it('uses the thresholds given in the options', async () => {
    const branch = toolkitBranch(ws.root, { tools: ['bash'], limits: { contextWindow: 20 } }, { sources });
    const note = (await call(branch, 'bash', { command: 'echo hi' })).system_note as string;
    expect(note).toContain('nearly full');
    const roomy = toolkitBranch(ws.root, { tools: ['bash'], limits: { contextWindow: 1_000_000 } }, { sources });
    expect((await call(roomy, 'bash', { command: 'echo hi' })).system_note).toMatch(/^\[context \d+\/1000k tokens/);
  });

  it('counts bash failures from exit codes and nudges after a streak', async () => {
    const branch = toolkitBranch(ws.root, { tools: ['bash'] }, { sources });
    await call(branch, 'bash', { command: 'false' });
    await call(branch, 'bash', { command: 'false' });
    expect((await call(branch, 'bash', { command: 'false' })).system_note).toContain('3 bash calls in a row failed');
  });
});

describe('sandbox root switch', () => {
  it('runs bash and search inside the worktree while a sandbox is active', async () => {
    initRepo(ws.root);
    const branch = toolkitBranch(
      ws.root,
      {
        tools: ['bash', 'search', 'sandbox'],
        notify: false,
        sandbox: { identity: { name: 't', email: 't@x.invalid' } },
      },
      { sources },
    );
    const made = await call(branch, 'sandbox', { action: 'create' });
    expect((await call(branch, 'bash', { command: 'pwd' })).stdout).toBe(`${made.worktree}\n`);
    await call(branch, 'bash', { command: 'touch only-in-sandbox.txt' });
    expect((await call(branch, 'search', { action: 'find', pattern: 'only-in-*' })).success).toBe(true);
    expect(JSON.stringify(await call(branch, 'search', { action: 'find', pattern: 'only-in-*' }))).toContain(
      'only-in-sandbox.txt',
    );
    await call(branch, 'sandbox', { action: 'discard' });
    expect((await call(branch, 'bash', { command: 'pwd' })).stdout).toBe(`${ws.root}\n`);
  });
});

describe('limits', () => {
  it('throws a configuration error naming the key when the toolkit is made', () => {
    expect(() => codingToolkit({ limits: { nudgeThreshold: -0.5 } })).toThrow(/nudgeThreshold/);
    expect(() => codingToolkit({ limits: { contextWindw: 10 } as never })).toThrow(/contextWindw/);
    expect(() => codingToolkit({ limits: { guardWindowsPerFile: 2.5 } })).toThrow(ConfigurationError);
  });
});
