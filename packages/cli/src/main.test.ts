import { readFileSync } from 'node:fs';
import { captureIO, makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from './main.js';

const never = new AbortController().signal;

describe('bough CLI (in-process)', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({ 'notes.txt': 'alpha\nbeta\n', '.env': 'SECRET=shh\n' });
  });
  afterEach(() => ws.cleanup());

  it('calls a tool and prints its JSON response with exit 0', async () => {
    const io = captureIO(ws.root);
    const code = await main(['call', 'reader', JSON.stringify({ action: 'read', path: 'notes.txt' })], io, never);
    expect(code).toBe(0);
    const output = JSON.parse(io.out());
    expect(output.success).toBe(true);
    expect(output.content).toContain('alpha');
  });

  it('exits 1 on a typed failure and still prints the failure', async () => {
    const io = captureIO(ws.root);
    const code = await main(['call', 'reader', JSON.stringify({ action: 'read', path: '.env' })], io, never);
    expect(code).toBe(1);
    expect(JSON.parse(io.out())).toMatchObject({ success: false, error_code: 'protected_path' });
    expect(io.out()).not.toContain('shh');
  });

  it('exits 1 for invalid arguments (a typed failure, not a crash)', async () => {
    const io = captureIO(ws.root);
    expect(await main(['call', 'bash', '{"command": 5}'], io, never)).toBe(1);
    expect(JSON.parse(io.out())).toMatchObject({ success: false, error_code: 'invalid_request' });
  });

  it('edits through the standalone editor, and the toolkit refuses an unread edit', async () => {
    const edit = JSON.stringify({ action: 'edit', file_path: 'notes.txt', old_string: 'beta', new_string: 'gamma' });
    const guarded = captureIO(ws.root);
    expect(await main(['call', '--toolkit', 'editor', edit], guarded, never)).toBe(1);
    expect(readFileSync(ws.path('notes.txt'), 'utf8')).toBe('alpha\nbeta\n');
    const plain = captureIO(ws.root);
    expect(await main(['call', 'editor', edit], plain, never)).toBe(0);
    expect(readFileSync(ws.path('notes.txt'), 'utf8')).toBe('alpha\ngamma\n');
  });

  it.each([
    [['call'], /needs a tool name/],
    [['call', 'reader', '{not json'], /not valid JSON/],
    [['call', 'nope', '{}'], /No tool named nope/],
    [['frobnicate'], /Unknown command/],
    [['tools', '--workspace', '/definitely/not/here'], /does not exist/],
    [['tools', '--tools', 'reader,nope'], /Unknown tool/],
    [['tools', '--toolkit', '--tools', 'reader,nope'], /Unknown coding tool/],
    [['agent', 'do it'], /--base-url/],
  ])('exits 2 with one line and a help pointer for %j', async (argv, message) => {
    const io = captureIO(ws.root);
    expect(await main(argv, io, never)).toBe(2);
    const lines = io.err().trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(message);
    const command = argv[0] === 'frobnicate' ? '' : `${argv[0]} `;
    expect(lines[1]).toBe(`Run \`bough ${command}--help\` for more.`);
    expect(io.out()).toBe('');
  });

  it('prints the version with exit 0', async () => {
    const io = captureIO(ws.root);
    expect(await main(['--version'], io, never)).toBe(0);
    expect(io.out()).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(io.err()).toBe('');
  });

  it("prints one command's help for `bough <command> --help` and `bough help <command>`", async () => {
    const io = captureIO(ws.root);
    expect(await main(['call', '--help'], io, never)).toBe(0);
    expect(io.out()).toContain("bough call <tool> '<json>'");
    expect(io.out()).not.toContain('bough demo');
    const again = captureIO(ws.root);
    expect(await main(['help', 'call'], again, never)).toBe(0);
    expect(again.out()).toBe(io.out());
  });

  it('lists tools with descriptions and JSON Schemas', async () => {
    const io = captureIO(ws.root);
    expect(await main(['tools', '--json'], io, never)).toBe(0);
    const listing = JSON.parse(io.out()) as { name: string; inputSchema: { type: string } }[];
    expect(listing.map((tool) => tool.name)).toEqual([
      'reader',
      'editor',
      'bash',
      'jobs',
      'search',
      'code_check',
      'code_nav',
      'ast_search',
    ]);
    expect(listing.every((tool) => tool.inputSchema.type === 'object')).toBe(true);
    const toolkit = captureIO(ws.root);
    await main(['tools', '--toolkit', '--json'], toolkit, never);
    expect(JSON.parse(toolkit.out()).map((tool: { name: string }) => tool.name)).toContain('context');
  });

  it('prints help with exit 0 and no command with exit 2', async () => {
    const help = captureIO(ws.root);
    expect(await main(['--help'], help, never)).toBe(0);
    expect(help.out()).toContain('bough demo');
    const none = captureIO(ws.root);
    expect(await main([], none, never)).toBe(2);
    expect(none.err()).toBe('bough: No command given.\nRun `bough --help` for more.\n');
  });
});

describe('bough demo', () => {
  it('runs the whole scripted session and passes its own checks', async () => {
    const io = captureIO(process.cwd());
    const code = await main(['demo'], io, never);
    expect(io.out()).toContain('demo OK');
    expect(code).toBe(0);
    expect(io.out()).not.toContain('demo-secret-never-shown');
    for (const tool of [
      'reader',
      'editor',
      'code_check',
      'code_nav',
      'ast_search',
      'search',
      'bash',
      'context',
      'messenger',
    ]) {
      expect(io.out()).toContain(`→ ${tool}`);
    }
  }, 120_000);
});

describe('bough demo --json', () => {
  it('prints one JSON object per line: every call, then the result', async () => {
    const io = captureIO(process.cwd());
    expect(await main(['demo', '--json'], io, never)).toBe(0);
    const events = io
      .out()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string; function?: string; ok?: boolean });
    expect(events.at(-1)).toMatchObject({ event: 'result', ok: true });
    const calls = events.filter((event) => event.event === 'call');
    expect(calls.length).toBeGreaterThanOrEqual(14);
    expect(new Set(calls.map((event) => event.function))).toEqual(
      new Set(['reader', 'editor', 'code_check', 'code_nav', 'ast_search', 'search', 'bash', 'context', 'messenger']),
    );
  }, 120_000);
});
