import { type ChildProcess, spawn } from 'node:child_process';
import { sandboxSupport } from '@bough/process';
import { CLI_BIN, exited, makeWorkspace, requireCliBuild, type TempWorkspace } from '@bough/test-utils';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sleepers, until } from './test-sleepers.js';

/** The SDK's stdio framing over a child we spawned ourselves, so the test decides when stdin closes. */
class ChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #buffer = new ReadBuffer();
  constructor(readonly child: ChildProcess) {}
  async start(): Promise<void> {
    this.child.stdout?.on('data', (chunk: Buffer) => {
      this.#buffer.append(chunk);
      for (let message = this.#buffer.readMessage(); message; message = this.#buffer.readMessage()) {
        this.onmessage?.(message);
      }
    });
    this.child.once('exit', () => this.onclose?.());
  }
  async send(message: JSONRPCMessage): Promise<void> {
    this.child.stdin?.write(serializeMessage(message));
  }
  async close(): Promise<void> {
    this.child.stdin?.end();
  }
}

let ws: TempWorkspace;
beforeEach(() => {
  requireCliBuild();
  ws = makeWorkspace({ 'a.txt': 'one\n' });
});
afterEach(() => ws.cleanup());

/** Starts `bough mcp DIR` with the SDK client and a background `sleep` job; returns the job's host pid. */
async function serverWithJob(extra: readonly string[] = []) {
  const child = spawn(process.execPath, [CLI_BIN, 'mcp', ws.root, ...extra], { stdio: ['pipe', 'pipe', 'ignore'] });
  const client = new Client({ name: 'lifecycle', version: '0' });
  await client.connect(new ChildTransport(child));
  const marker = `${3000 + Math.floor(Math.random() * 5000)}.${process.pid}`;
  const started = await client.callTool({ name: 'bash', arguments: { command: `sleep ${marker}`, background: true } });
  expect(started.isError).toBeFalsy();
  await until(() => sleepers(marker).length > 0);
  return { child, client, marker, pids: sleepers(marker) };
}

const bwrapWorks = sandboxSupport().available;

describe('bough mcp on stdio ends the background jobs it started', () => {
  it('serves jobs beside bash, so the model can stop what it started', async () => {
    const { child, client, marker } = await serverWithJob();
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('jobs');
    const listed = await client.callTool({ name: 'jobs', arguments: { action: 'list' } });
    const job = (listed.structuredContent as { jobs: { job_id: string }[] }).jobs[0];
    await client.callTool({ name: 'jobs', arguments: { action: 'kill', job_id: job?.job_id } });
    expect(sleepers(marker)).toEqual([]);
    child.stdin?.end();
    expect(await exited(child)).toBe(0);
  }, 60_000);

  it('on stdin close: exits 0 and the job is gone', async () => {
    const { child, marker } = await serverWithJob();
    child.stdin?.end();
    expect(await exited(child)).toBe(0);
    expect(sleepers(marker)).toEqual([]);
  }, 60_000);

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)(
    'on %s: exits %i and the job is gone',
    async (signal, code) => {
      const { child, marker } = await serverWithJob();
      child.kill(signal);
      expect(await exited(child)).toBe(code);
      expect(sleepers(marker)).toEqual([]);
    },
    60_000,
  );

  it('on SIGKILL of an unsandboxed server: its watchdog kills the job when the server is gone', async () => {
    const { child, marker, pids } = await serverWithJob(['--sandbox', 'off']);
    expect(pids.length).toBeGreaterThan(0);
    child.kill('SIGKILL');
    await exited(child);
    // No deadline of its own: the test timeout bounds it (without the watchdog the job sleeps on for an hour).
    await until(() => sleepers(marker).length === 0);
  }, 60_000);

  it.skipIf(!bwrapWorks)(
    'on SIGKILL of a server with the default sandbox: bubblewrap ends the job with it',
    async () => {
      const { child, marker } = await serverWithJob();
      child.kill('SIGKILL');
      await exited(child);
      await until(() => sleepers(marker).length === 0);
    },
    60_000,
  );
});
