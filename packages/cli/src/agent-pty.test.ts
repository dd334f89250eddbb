// `bough agent` on a real pseudo-terminal (util-linux `script`): the prompt, a `y`, and Ctrl-C during a call.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CLI_BIN,
  collect,
  exited,
  type FakeOpenAI,
  isRunning,
  makeWorkspace,
  requireCliBuild,
  SLEEPER,
  SLEEPER_COMMAND,
  sseAnswer,
  startFakeOpenAI,
  type TempWorkspace,
  waitForFile,
} from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const hasScript = spawnSync('script', ['--version']).status === 0;
let ws: TempWorkspace;
let server: FakeOpenAI | undefined;
let child: ChildProcess | undefined;
beforeEach(() => {
  requireCliBuild();
  ws = makeWorkspace({ 'sleeper.cjs': SLEEPER });
});
afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await server?.close();
  ws.cleanup();
});

/** Runs the built CLI inside `script`, so its stdin, stdout and stderr are a terminal. */
function onTerminal(args: readonly string[]): ChildProcess {
  const command = [process.execPath, CLI_BIN, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  return spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: ws.root,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, BOUGH_MODEL_RETRY_DELAY_MS: '1', TERM: 'dumb', XDG_STATE_HOME: join(ws.base, 'state') },
  });
}

async function waitFor(read: () => string, text: string): Promise<void> {
  while (!read().includes(text)) {
    if (child?.exitCode !== null) throw new Error(`the CLI exited before printing ${JSON.stringify(text)}:\n${read()}`);
    await sleep(20);
  }
}

describe.skipIf(!hasScript)('bough agent on a pseudo-terminal', () => {
  it('asks before a command, runs it on y, and streams the answer', async () => {
    server = await startFakeOpenAI([
      { sse: sseAnswer(['Let me ', 'check.'], [{ id: 'b1', name: 'bash', args: { command: 'echo from-the-shell' } }]) },
      (request) => ({
        sse: sseAnswer([
          'The shell said ',
          String(request.body.messages.at(-1)?.content).includes('from-the-shell') ? 'hello.' : 'nothing.',
        ]),
      }),
    ]);
    child = onTerminal(['agent', 'say hello', '--base-url', server.url, '--model', 'fake']);
    const screen = collect(child.stdout);
    await waitFor(screen, 'y/n/a>');
    expect(screen()).toContain('Let me check.');
    expect(screen()).toContain('$ echo from-the-shell');
    child.stdin?.write('y\r');
    expect(await exited(child)).toBe(0);
    expect(screen()).toContain('The shell said hello.');
  });

  it('stops cleanly on Ctrl-C during a prompt', async () => {
    server = await startFakeOpenAI([
      { sse: sseAnswer([], [{ id: 'b1', name: 'bash', args: { command: 'echo never' } }]) },
    ]);
    child = onTerminal(['agent', 'go', '--base-url', server.url, '--model', 'fake']);
    const screen = collect(child.stdout);
    await waitFor(screen, 'y/n/a>');
    child.stdin?.write('\x03');
    expect(await exited(child)).toBe(130);
    expect(screen()).toMatch(/stopped: aborted/);
    expect(server.requests).toHaveLength(1);
  });

  it('stops cleanly on Ctrl-C during a call and leaves no process behind', async () => {
    server = await startFakeOpenAI([
      { sse: sseAnswer([], [{ id: 'b1', name: 'bash', args: { command: SLEEPER_COMMAND } }]) },
    ]);
    child = onTerminal(['agent', 'go', '--base-url', server.url, '--model', 'fake', '--yes']);
    const screen = collect(child.stdout);
    const pid = Number(await waitForFile(join(ws.root, 'pid.txt'), child));
    expect(isRunning(pid)).toBe(true);
    child.stdin?.write('\x03');
    expect(await exited(child)).toBe(130);
    expect(isRunning(pid)).toBe(false);
    expect(screen()).toMatch(/stopped: aborted/);
    writeFileSync(join(ws.root, 'done'), '');
  });

  it('keeps a live line while the model thinks and while a tool runs, and wipes it', async () => {
    const wait = `while [ ! -e go ]; do sleep 0.05; done; echo went`;
    server = await startFakeOpenAI([
      { sse: sseAnswer([], [{ id: 'b1', name: 'bash', args: { command: wait } }]) },
      { sse: sseAnswer(['All done.']) },
    ]);
    child = onTerminal(['agent', 'go on', '--base-url', server.url, '--model', 'fake', '--yes']);
    const screen = collect(child.stdout);
    // The command runs until the test saw its live line, so the line had to be there while it ran.
    while (!LIVE('bash').test(screen())) {
      if (child.exitCode !== null) throw new Error(`the CLI exited without a live line:\n${screen()}`);
      await sleep(20);
    }
    writeFileSync(join(ws.root, 'go'), '');
    expect(await exited(child)).toBe(0);
    expect(screen()).toMatch(LIVE('thinking'));
    expect(screen()).toContain('All done.');
    // The last thing drawn on the line before the answer wiped it.
    expect(screen().lastIndexOf('\x1b[2K')).toBeGreaterThan(screen().search(LIVE('bash')));
  });
});

/** A frame of the live line showing `label` and its seconds. */
const LIVE = (label: string) => new RegExp(`[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] ${label} \\d+ s`);

describe('bough agent off a terminal', () => {
  it('draws no live line', async () => {
    server = await startFakeOpenAI([
      { sse: sseAnswer([], [{ id: 'b1', name: 'bash', args: { command: 'echo quick' } }]) },
      { sse: sseAnswer(['All done.']) },
    ]);
    child = spawn(process.execPath, [CLI_BIN, 'agent', 'go on', '--base-url', server.url, '--model', 'fake', '--yes'], {
      cwd: ws.root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, BOUGH_MODEL_RETRY_DELAY_MS: '1' },
    });
    const err = collect(child.stderr);
    const out = collect(child.stdout);
    expect(await exited(child)).toBe(0);
    expect(out()).toContain('All done.');
    expect(err()).toContain('→ bash');
    expect(err()).not.toMatch(LIVE('(thinking|bash)'));
    expect(err()).not.toContain('\x1b[2K');
  });
});
