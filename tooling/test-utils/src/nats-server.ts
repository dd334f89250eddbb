import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A `nats-server -js` on 127.0.0.1 with its own temporary file store, for tests. */
export interface TestNatsServer {
  /** `nats://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** The JetStream store directory (kept across {@link TestNatsServer.restart}). */
  readonly storeDir: string;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s); the store stays. */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same store. */
  start(): Promise<void>;
  /** Stops the server and deletes the store. */
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts `nats-server -js` (from PATH, or `NATS_SERVER`) on a free loopback port with a fresh temporary store. */
export async function startNatsServer(): Promise<TestNatsServer> {
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'bough-nats-'));
  let child: ChildProcess | undefined;
  let log = '';
  const start = async (): Promise<void> => {
    const binary = process.env.NATS_SERVER ?? 'nats-server';
    const proc = spawn(binary, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child = proc;
    proc.stderr?.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4_000);
    });
    const deadline = Date.now() + 15_000;
    // The port accepts once the server is up; JetStream is ready by then (it is enabled before the listener).
    while (!(await accepts(port))) {
      if (proc.exitCode !== null || proc.signalCode !== null || Date.now() > deadline) {
        proc.kill('SIGKILL');
        throw new Error(`nats-server did not start on port ${port}: ${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    while (!/Server is ready/.test(log) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  };
  const stop = async (): Promise<void> => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
    log = '';
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    stop,
    start,
    close: async () => {
      await stop();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
