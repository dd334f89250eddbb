import { writeFileSync } from 'node:fs';
import {
  collect,
  exited,
  isRunning,
  makeWorkspace,
  requireCliBuild,
  SLEEPER,
  SLEEPER_COMMAND,
  spawnCli,
  type TempWorkspace,
  waitForFile,
} from '@bough/test-utils';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

describe('the built bough binary', () => {
  let ws: TempWorkspace;
  beforeAll(requireCliBuild);
  beforeEach(() => {
    ws = makeWorkspace({ 'sleeper.cjs': SLEEPER, 'notes.txt': 'alpha\n' });
  });
  afterEach(() => ws.cleanup());

  it('SIGINT during a long call aborts the tool, stops its process and exits 130 with the result printed', async () => {
    const child = spawnCli(['call', 'bash', JSON.stringify({ command: SLEEPER_COMMAND }), '--workspace', ws.root]);
    const out = collect(child.stdout);
    const pid = Number(await waitForFile(ws.path('pid.txt'), child));
    expect(isRunning(pid)).toBe(true);
    child.kill('SIGINT');
    expect(await exited(child)).toBe(130);
    expect(isRunning(pid)).toBe(false);
    const output = JSON.parse(out()) as { success?: boolean; error_code?: string };
    expect(output.success).toBe(false);
    expect(output.error_code).toBe('aborted');
  }, 60_000);

  it('reads a large JSON request from stdin with `-`', async () => {
    const content = 'x'.repeat(3 * 1024 * 1024);
    const child = spawnCli(['call', 'editor', '-', '--workspace', ws.root, '--json']);
    const out = collect(child.stdout);
    child.stdin?.end(JSON.stringify({ action: 'write', file_path: 'big.txt', content }));
    const code = await exited(child);
    expect(out()).toContain('"success"');
    const output = JSON.parse(out()) as { success: boolean; error_code?: string };
    // Whatever the editor's own size limit decides, the CLI hands the request over intact and maps the outcome.
    expect(code).toBe(output.success ? 0 : 1);
    if (!output.success) expect(output.error_code).not.toBe('invalid_request');
  }, 60_000);

  it('refuses stdin JSON that is not an object with exit 2', async () => {
    const child = spawnCli(['call', 'reader', '-', '--workspace', ws.root]);
    const err = collect(child.stderr);
    child.stdin?.end('[1, 2, 3]');
    expect(await exited(child)).toBe(2);
    expect(err()).toMatch(/must be a JSON object/);
  });

  it('exits 1 for a typed failure and 0 for success through the real process', async () => {
    writeFileSync(ws.path('.env'), 'TOKEN=never-printed\n');
    const refused = spawnCli(['call', 'reader', '{"action":"read","path":".env"}', '--workspace', ws.root]);
    const refusedOut = collect(refused.stdout);
    expect(await exited(refused)).toBe(1);
    expect(refusedOut()).not.toContain('never-printed');
    const fine = spawnCli(['call', 'reader', '{"action":"read","path":"notes.txt"}', '--workspace', ws.root]);
    expect(await exited(fine)).toBe(0);
  });
});
