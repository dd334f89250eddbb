import { spawn } from 'node:child_process';
import { sandboxSupport } from '@bough/process';
import {
  CLI_BIN,
  collect,
  exited,
  makeWorkspace,
  requireCliBuild,
  spawnCli,
  sseAnswer,
  startFakeOpenAI,
  type TempWorkspace,
} from '@bough/test-utils';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sleepers, until } from './test-sleepers.js';

let ws: TempWorkspace;
beforeEach(() => {
  requireCliBuild();
  ws = makeWorkspace({ 'a.txt': 'one\n' });
});
afterEach(() => ws.cleanup());

const bwrapWorks = sandboxSupport().available;

/** Runs one bash command through `bough mcp` with these arguments; returns the result and the server's stderr. */
async function bashThroughMcp(args: readonly string[], command: string, env: Record<string, string> = {}) {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, 'mcp', ...args],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'front-door', version: '0' });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: 'bash', arguments: { command } });
    const out = result.structuredContent as { sandboxed?: boolean; stdout?: string; output?: string };
    return { out, text: JSON.stringify(result), stderr: () => stderr };
  } finally {
    await client.close();
  }
}

describe('bough mcp starts safe', () => {
  it.skipIf(!bwrapWorks)(
    'runs bash in the OS sandbox by default: a file beside the workspace is not there',
    async () => {
      const secret = `${ws.outside}/secret.txt`;
      for (const extra of [[], ['--standalone']]) {
        const { out, text } = await bashThroughMcp([ws.root, ...extra], `cat ${secret}`);
        expect(out.sandboxed).toBe(true);
        expect(text).not.toContain('OUTSIDE-SECRET-CANARY');
      }
      // --sandbox off keeps the old behaviour, explicitly.
      const plain = await bashThroughMcp([ws.root, '--sandbox', 'off'], `cat ${secret}`);
      expect(plain.out.sandboxed).toBe(false);
      expect(plain.text).toContain('OUTSIDE-SECRET-CANARY');
    },
    60_000,
  );

  it('tells the person at start-up, once, when auto falls back to running commands unsandboxed', async () => {
    // No bwrap on this PATH: the probe fails as on a machine without bubblewrap.
    const { out, stderr } = await bashThroughMcp([ws.root], '/bin/echo hi', { PATH: '/nonexistent' });
    expect(out.sandboxed).toBe(false);
    const warnings = stderr().match(/warning: the OS sandbox cannot be used here/g) ?? [];
    expect(warnings).toHaveLength(1);
    expect(stderr()).toMatch(/commands will run WITHOUT it/);
    // With bubblewrap where it works, and with the sandbox off, there is nothing to warn about.
    const off = await bashThroughMcp([ws.root, '--sandbox', 'off'], '/bin/echo hi', { PATH: '/nonexistent' });
    expect(off.stderr()).not.toMatch(/warning/);
  }, 60_000);

  it('bough agent --sandbox auto tells the person too, once, when it falls back', async () => {
    const model = await startFakeOpenAI([{ sse: sseAnswer(['ok']) }]);
    try {
      const argv = [CLI_BIN, 'agent', 'hi', '--sandbox', 'auto', '--base-url', model.url, '--model', 'm'];
      const child = spawn(process.execPath, argv, { cwd: ws.root, env: { PATH: '/nonexistent', HOME: ws.base } });
      const err = collect(child.stderr);
      expect(await exited(child)).toBe(0);
      expect(err().match(/bough agent: warning: the OS sandbox cannot be used here/g)).toHaveLength(1);
    } finally {
      await model.close();
    }
  }, 60_000);

  it('refuses an empty directory argument like /, with exit 2', async () => {
    for (const args of [[''], [ws.root, '']]) {
      const child = spawnCli(['mcp', ...args], ws.root);
      const err = collect(child.stderr);
      expect(await exited(child)).toBe(2);
      expect(err()).toMatch(/empty directory name/);
    }
  }, 60_000);
});

describe('bough agent killed with a background job running', () => {
  it('leaves no job behind: the watchdog ends it when the agent is SIGKILLed', async () => {
    const marker = `${4000 + Math.floor(Math.random() * 5000)}.${process.pid}`;
    const call = { id: 'b1', name: 'bash', args: { command: `sleep ${marker}`, background: true } };
    // The model starts the job, then never answers again: the agent waits until it is killed.
    const model = await startFakeOpenAI([{ sse: sseAnswer([], [call]) }, { hang: true }]);
    try {
      const argv = [CLI_BIN, 'agent', 'go', '--yes', '--base-url', model.url, '--model', 'm'];
      const child = spawn(process.execPath, argv, {
        cwd: ws.root,
        env: { PATH: process.env.PATH ?? '', HOME: ws.base },
      });
      await until(() => model.requests.length >= 2);
      expect(sleepers(marker).length).toBeGreaterThan(0);
      child.kill('SIGKILL');
      await exited(child);
      // No deadline of its own: without the watchdog the job sleeps on for its whole lifetime.
      await until(() => sleepers(marker).length === 0);
    } finally {
      await model.close();
    }
  }, 60_000);
});

describe('bough call with a closed stdout', () => {
  it('ends quietly with exit 141 when the reader is gone (bough call … | head)', async () => {
    // The reader of stdout has gone before the result is written: the write hits EPIPE.
    const child = spawn(process.execPath, [CLI_BIN, 'call', 'bash', '{"command":"sleep 1"}', '--workspace', ws.root], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const err = collect(child.stderr);
    child.stdout?.destroy();
    expect(await exited(child)).toBe(141);
    expect(err()).not.toMatch(/EPIPE|Error|at /);
  }, 60_000);
});
