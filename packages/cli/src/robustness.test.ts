import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { toolOutputSummary } from '@bough/core';
import { captureIO, makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from './main.js';
import { readAll } from './stdin.js';
import { standaloneRegistry } from './toolset.js';

const never = new AbortController().signal;

describe('bough call: odd input', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({ 'notes.txt': 'alpha\nbeta\n', 'dir/inner.txt': 'x\n' });
  });
  afterEach(() => ws.cleanup());

  it.each([
    ['[1,2]', /not an array/],
    ['5', /not a number/],
    ['"read"', /not a string/],
    ['null', /not null/],
    ['true', /not a boolean/],
  ])('refuses %s (not an object) as a usage error', async (json, message) => {
    const io = captureIO(ws.root);
    expect(await main(['call', 'reader', json], io, never)).toBe(2);
    expect(io.err()).toMatch(/must be a JSON object/);
    expect(io.err()).toMatch(message);
    expect(io.out()).toBe('');
  });

  it('passes a huge JSON object to the tool and reports its typed answer', async () => {
    const huge = JSON.stringify({ action: 'read', path: 'notes.txt', junk: 'z'.repeat(5 * 1024 * 1024) });
    const io = captureIO(ws.root);
    expect(await main(['call', 'reader', huge, '--json'], io, never)).toBe(1);
    const output = JSON.parse(io.out()) as { error_code: string; error: string };
    expect(output.error_code).toBe('invalid_request');
    // The answer names the problem without echoing megabytes back.
    expect(io.out().length).toBeLessThan(10_000);
  });

  it('reads the request from stdin with `-`, and caps it', async () => {
    const request = JSON.stringify({ action: 'read', path: 'notes.txt' });
    const io = captureIO(ws.root, {}, { readStdin: (max: number) => readAll(Readable.from([request]), max) });
    expect(await main(['call', 'reader', '-'], io, never)).toBe(0);
    expect(io.out()).toContain('alpha');
    const small = captureIO(
      ws.root,
      {},
      {
        readStdin: (max: number) => readAll(Readable.from([request]), max),
        limits: { maxStdinBytes: 10 },
      },
    );
    expect(await main(['call', 'reader', '-'], small, never)).toBe(2);
    expect(small.err()).toMatch(/larger than 10 bytes/);
    const none = captureIO(ws.root);
    expect(await main(['call', 'reader', '-'], none, never)).toBe(2);
  });

  it.each([
    [['call', 'reader', '{}', '--workspce', '.'], /does not accept --workspce/],
    [['tools', '--verbose'], /does not accept --verbose/],
    [['demo', '--workspace', '.'], /does not accept --workspace/],
    [['mcp', '--json'], /does not accept --json/],
    [['agent', 'x', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--key', 'k'], /does not accept --key/],
  ])('refuses unknown flags: %j', async (argv, message) => {
    const io = captureIO(ws.root);
    expect(await main(argv, io, never)).toBe(2);
    expect(io.err()).toMatch(message);
  });

  it('accepts --help on any command', async () => {
    const io = captureIO(ws.root);
    expect(await main(['call', '--help'], io, never)).toBe(0);
    expect(io.out()).toContain('Usage:');
  });
});

describe('--workspace that is not a usable directory', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({ 'file.txt': 'x\n', 'real/a.txt': 'inside\n' });
    symlinkSync(ws.path('real'), ws.path('link-to-dir'));
    symlinkSync(ws.path('file.txt'), ws.path('link-to-file'));
    symlinkSync(ws.path('nowhere'), ws.path('dangling'));
    symlinkSync(ws.path('loop-b'), ws.path('loop-a'));
    symlinkSync(ws.path('loop-a'), ws.path('loop-b'));
  });
  afterEach(() => ws.cleanup());

  it.each([
    ['file.txt', /is not a directory/],
    ['link-to-file', /is not a directory/],
    ['dangling', /does not exist \(it is a link to nothing\)/],
    ['missing/dir', /does not exist/],
    ['file.txt/below', /does not exist/],
    ['loop-a', /symlink loop/],
  ])('refuses %s with exit 2', async (target, message) => {
    const io = captureIO(ws.root);
    const code = await main(['call', 'reader', '{"action":"read","path":"a.txt"}', '--workspace', target], io, never);
    expect(code).toBe(2);
    expect(io.err()).toMatch(message);
    expect(io.out()).toBe('');
  });

  it('follows a symlink to a directory once and works inside its real path', async () => {
    const io = captureIO(ws.root);
    const code = await main(
      ['call', 'reader', '{"action":"read","path":"a.txt"}', '--workspace', 'link-to-dir', '--json'],
      io,
      never,
    );
    expect(code).toBe(0);
    expect(JSON.parse(io.out()).path).toBe(`${ws.path('real')}/a.txt`);
  });

  it.skipIf(process.getuid?.() === 0)('refuses a directory it cannot read', async () => {
    mkdirSync(ws.path('locked'));
    writeFileSync(ws.path('locked/a.txt'), 'x');
    chmodSync(ws.path('locked'), 0o000);
    try {
      const io = captureIO(ws.root);
      expect(await main(['tools', '--workspace', 'locked'], io, never)).toBe(2);
      expect(io.err()).toMatch(/not readable/);
    } finally {
      chmodSync(ws.path('locked'), 0o755);
    }
  });
});

describe('progress on a terminal', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({ 'out.cjs': "process.stdout.write('x'.repeat(5000));\n" });
  });
  afterEach(() => ws.cleanup());

  it("draws the tool's progress reports on stderr and clears the line; stdout stays pure JSON", async () => {
    const io = captureIO(ws.root, {}, { isTTY: true });
    const command = `${JSON.stringify(process.execPath)} out.cjs`;
    expect(await main(['call', 'bash', JSON.stringify({ command })], io, never)).toBe(0);
    expect(io.err()).toMatch(/bash: output bytes \d+/);
    expect(io.err().endsWith('\r\x1b[2K')).toBe(true);
    expect(JSON.parse(io.out()).return_code).toBe(0);
  });

  it('draws nothing when stderr is not a terminal', async () => {
    const io = captureIO(ws.root);
    const command = `${JSON.stringify(process.execPath)} out.cjs`;
    expect(await main(['call', 'bash', JSON.stringify({ command })], io, never)).toBe(0);
    expect(io.err()).toBe('');
  });
});

describe('toolOutputSummary', () => {
  it('never dumps a long JSON result whole', () => {
    const tools = standaloneRegistry(process.cwd());
    const big = {
      success: true,
      items: Array.from({ length: 50 }, (_, i) => ({ kind: 'ref', name: `n${i}`, line: i })),
    };
    const summary = toolOutputSummary(tools.get('code_nav'), big);
    expect(summary.headline).toBe('50 items found');
    expect(summary.details.length).toBeLessThanOrEqual(7);
    expect(summary.details.at(-1)).toMatch(/44 more/);
    const unknown = toolOutputSummary(undefined, { success: true, blob: 'y'.repeat(10_000) });
    expect(unknown.headline.length).toBeLessThan(300);
  });

  it('shows typed failures and status results with their code', () => {
    expect(toolOutputSummary(undefined, { success: false, error_code: 'protected_path', error: 'no' })).toMatchObject({
      ok: false,
      headline: '[protected_path] no',
    });
    expect(
      toolOutputSummary(undefined, {
        success: false,
        status: 'error',
        error_code: 'tool_missing',
        error: 'ruff missing',
      }),
    ).toMatchObject({
      ok: false,
    });
  });
});
