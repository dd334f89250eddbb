import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, survivors } from '@bough/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { LspClient } from './index.js';
import { makeProject, TEST_ENV } from './test-projects.js';

const FAKE = join(import.meta.dirname, 'test-fake-server.mjs');
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function fakeClient(mode: string, limits: ConstructorParameters<typeof LspClient>[0]['limits'] = {}): LspClient {
  const project = makeProject('c');
  writeFileSync(join(project.root, 'a.fake'), 'text\n');
  const client = new LspClient({
    workspaceRoot: project.root,
    ...TEST_ENV,
    servers: [{ id: 'fake', extensions: { fake: 'fake' }, command: [process.execPath, FAKE, mode], install: 'n/a' }],
    limits: { startTimeoutMs: 5_000, requestTimeoutMs: 300, shutdownGraceMs: 200, ...limits },
  });
  cleanups.push(project.remove, () => client.dispose());
  return client;
}

describe('server lifecycle', () => {
  it('answers unavailable, naming the install command, when the server binary is missing', async () => {
    const project = makeProject('go');
    cleanups.push(project.remove);
    const client = new LspClient({
      workspaceRoot: project.root,
      baseEnv: { PATH: '/nonexistent', HOME: '/tmp' },
    });
    cleanups.push(() => client.dispose());
    const result = await client.outline('calc.go');
    expect(result).toMatchObject({ success: false, error_code: 'unavailable' });
    expect(result.success === false && result.error).toContain('apt-get install gopls');
  });

  it('bounds every request: a server that never answers gives a typed timeout, and stays usable', async () => {
    const client = fakeClient('hang');
    const result = await client.outline('a.fake');
    expect(result).toMatchObject({ success: false, error_code: 'timeout' });
    expect(client.running()).toHaveLength(1);
  });

  it("honours the caller's abort signal while a request is in flight", async () => {
    const client = fakeClient('hang', { requestTimeoutMs: 10_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(await client.outline('a.fake', { signal: controller.signal })).toMatchObject({
      success: false,
      error_code: 'aborted',
    });
  });

  it('bounds the start: a server that never answers initialize times out and is ended', async () => {
    const client = fakeClient('silent', { startTimeoutMs: 300 });
    const result = await client.outline('a.fake');
    expect(result).toMatchObject({ success: false, error_code: 'timeout' });
    expect(client.running()).toEqual([]);
  });

  it('refuses files no server is configured for, and paths outside the workspace', async () => {
    const client = fakeClient('hang');
    expect(await client.outline('util.h.txt')).toMatchObject({ success: false });
    expect(await client.outline('compile_flags.txt')).toMatchObject({ error_code: 'unsupported_language' });
    expect(await client.outline('../outside.fake')).toMatchObject({ success: false, error_code: 'outside_workspace' });
  });

  it('restarts a crashed server while the budget lasts, then reports server_crashed', async () => {
    const client = fakeClient('crash', { maxRestarts: 1 });
    const first = await client.outline('a.fake'); // starts, opens, crashes
    expect(first.success).toBe(false);
    await eventually(() => (client.running().length === 0 ? true : undefined));
    const second = await client.outline('a.fake'); // restart 1 of 1, crashes again
    expect(second.success).toBe(false);
    await eventually(() => (client.running().length === 0 ? true : undefined));
    const third = await client.outline('a.fake');
    expect(third).toMatchObject({ success: false, error_code: 'server_crashed' });
    expect(third.success === false && third.error).toContain('not restarted');
  });

  it('shuts an idle server down after idleShutdownMs', async () => {
    const client = fakeClient('hang', { idleShutdownMs: 1_500 });
    await client.outline('a.fake');
    const [server] = client.running();
    expect(server).toBeDefined();
    await eventually(() => (client.running().length === 0 ? true : undefined));
    await eventually(() => (survivors([server?.pid ?? 0]).length === 0 ? true : undefined)); // its group is gone
  });

  it('ends every process of every server on dispose, grandchildren included, and refuses calls afterwards', async () => {
    const client = fakeClient('child');
    await client.outline('a.fake');
    const pids = client.running().map((s) => s.pid);
    expect(pids).toHaveLength(1);
    expect(survivors(pids).length).toBeGreaterThan(1); // the server and its sleeping child
    await client.dispose();
    expect(survivors(pids)).toEqual([]);
    expect(await client.outline('a.fake')).toMatchObject({ success: false, error_code: 'disposed' });
  });
});
