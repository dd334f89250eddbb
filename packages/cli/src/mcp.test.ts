import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import {
  CLI_BIN as bin,
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
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

type TextResult = { isError?: boolean; content: { type: string; text: string }[] };
const text = (result: unknown) => (result as TextResult).content.map((part) => part.text).join('');

describe('bough mcp over stdio with the real MCP SDK client', () => {
  let ws: TempWorkspace;
  let client: Client;
  beforeEach(async () => {
    requireCliBuild();
    ws = makeWorkspace({ 'src/app.py': 'def main():\n    return 1\n' });
    client = new Client({ name: 'bough-test', version: '0.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp', '--workspace', ws.root],
        stderr: 'ignore',
      }),
    );
  });
  afterEach(async () => {
    await client.close();
    ws.cleanup();
  });

  it('lists the coding toolkit and enforces read-before-edit across the session', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'reader',
      'editor',
      'bash',
      'search',
      'code_check',
      'code_nav',
      'ast_search',
      'jobs',
    ]);
    expect(tools[0]?.inputSchema.type).toBe('object');

    const edit = { action: 'edit', file_path: 'src/app.py', old_string: 'return 1', new_string: 'return 2' };
    const refused = await client.callTool({ name: 'editor', arguments: edit });
    expect(refused.isError).toBe(true);
    const read = await client.callTool({ name: 'reader', arguments: { action: 'read', path: 'src/app.py' } });
    expect(read.isError).toBeFalsy();
    expect(text(read)).toContain('def main');
    const allowed = await client.callTool({ name: 'editor', arguments: edit });
    expect(allowed.isError).toBeFalsy();
  });

  it('returns invalid arguments and escapes as readable isError results', async () => {
    const bad = await client.callTool({ name: 'bash', arguments: { command: 1 } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/invalid_request/);
    const outside = await client.callTool({
      name: 'reader',
      arguments: { action: 'read', path: '../ws-evil/secret.txt' },
    });
    expect(outside.isError).toBe(true);
    expect(text(outside)).not.toContain('OUTSIDE-SECRET-CANARY');
  });
});

async function connectClient(args: readonly string[]): Promise<Client> {
  const client = new Client({ name: 'bough-test', version: '0.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', ...args], stderr: 'ignore' }),
  );
  return client;
}

describe('bough mcp --tools and --standalone', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    requireCliBuild();
    ws = makeWorkspace({ 'a.txt': 'one\n' });
  });
  afterEach(() => ws.cleanup());

  it('serves only the chosen toolkit tools, still guarded', async () => {
    const client = await connectClient(['--workspace', ws.root, '--tools', 'reader,editor']);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['reader', 'editor']);
      const edit = { action: 'edit', file_path: 'a.txt', old_string: 'one', new_string: 'two' };
      expect((await client.callTool({ name: 'editor', arguments: edit })).isError).toBe(true);
      const bash = await client.callTool({ name: 'bash', arguments: { command: 'ls' } });
      expect(bash.isError).toBe(true);
      expect(text(bash)).toContain('unknown_tool');
    } finally {
      await client.close();
    }
  });

  it('serves chosen standalone tools without the guard', async () => {
    const client = await connectClient(['--workspace', ws.root, '--standalone', '--tools', 'editor']);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['editor']);
      const edit = { action: 'edit', file_path: 'a.txt', old_string: 'one', new_string: 'two' };
      expect((await client.callTool({ name: 'editor', arguments: edit })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('refuses an unknown tool name before serving, with exit 2', async () => {
    const child = spawnCli(['mcp', '--workspace', ws.root, '--tools', 'reader,teleport']);
    const err = collect(child.stderr);
    expect(await exited(child)).toBe(2);
    expect(err()).toMatch(/teleport/);
  });
});

/** A raw JSON-RPC session with the built server, for input no well-behaved client would send. */
function rawSession(ws: TempWorkspace, args: readonly string[] = ['--workspace', ws.root]) {
  const child = spawnCli(['mcp', ...args]);
  const replies: { id?: unknown; result?: unknown; error?: unknown }[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffer += chunk;
    let end = buffer.indexOf('\n');
    while (end >= 0) {
      replies.push(JSON.parse(buffer.slice(0, end)));
      buffer = buffer.slice(end + 1);
      end = buffer.indexOf('\n');
      for (const wake of waiters.splice(0)) wake();
    }
  });
  const send = (line: string) => child.stdin?.write(`${line}\n`);
  const reply = async (id: number) => {
    for (;;) {
      const found = replies.find((r) => r.id === id);
      if (found) return found;
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) before answering ${id}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  const request = (id: number, method: string, params: unknown) =>
    send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
  const initialize = async () => {
    request(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '0' },
    });
    await reply(1);
    send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  };
  return { child, send, reply, request, initialize, replies };
}

describe('bough mcp with a misbehaving client', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    requireCliBuild();
    ws = makeWorkspace({ 'sleeper.cjs': SLEEPER, 'a.txt': 'one\n' });
  });
  afterEach(() => ws.cleanup());

  it('skips garbage lines and keeps answering', async () => {
    const session = rawSession(ws);
    session.send('this is not json');
    session.send('{"jsonrpc":"2.0","id":');
    session.send('[1,2,3]');
    session.send(JSON.stringify({ hello: 'world' }));
    await session.initialize();
    session.request(2, 'tools/call', { name: 42 });
    session.request(3, 'no/such/method', {});
    session.request(4, 'tools/call', { name: 'reader', arguments: { action: 'read', path: 'a.txt' } });
    expect((await session.reply(2)).error).toBeDefined();
    expect((await session.reply(3)).error).toBeDefined();
    expect(JSON.stringify((await session.reply(4)).result)).toContain('one');
    session.child.stdin?.end();
    expect(await exited(session.child)).toBe(0);
  }, 30_000);

  // The sleeper reports its pid; outside the OS sandbox that is the host pid the test checks.
  const unsandboxed = () => rawSession(ws, ['--workspace', ws.root, '--sandbox', 'off']);

  it('stops a running call when it is told to stop (SIGTERM), even after stdin closed', async () => {
    const session = unsandboxed();
    await session.initialize();
    session.request(2, 'tools/call', { name: 'bash', arguments: { command: SLEEPER_COMMAND } });
    const pid = Number(await waitForFile(ws.path('pid.txt'), session.child));
    expect(isRunning(pid)).toBe(true);
    // stdin closing alone would wait for the answer; the signal aborts the call.
    session.child.stdin?.end();
    session.child.kill('SIGTERM');
    expect(await exited(session.child)).toBe(143);
    expect(isRunning(pid)).toBe(false);
  }, 60_000);

  it('stops a running call and exits cleanly when only its output pipe breaks (EPIPE)', async () => {
    const session = unsandboxed();
    await session.initialize();
    session.request(2, 'tools/call', { name: 'bash', arguments: { command: SLEEPER_COMMAND } });
    const pid = Number(await waitForFile(ws.path('pid.txt'), session.child));
    // The client stops reading but keeps stdin open; the next reply hits a broken pipe.
    session.child.stdout?.destroy();
    session.request(3, 'tools/call', { name: 'reader', arguments: { action: 'read', path: 'a.txt' } });
    expect(await exited(session.child)).toBe(0);
    expect(isRunning(pid)).toBe(false);
  }, 60_000);
});

describe('bough mcp DIR…: what it serves', () => {
  let ws: TempWorkspace;
  let other: TempWorkspace;
  beforeEach(() => {
    requireCliBuild();
    ws = makeWorkspace({ 'a.txt': 'from the first root\n' });
    other = makeWorkspace({ 'b.txt': 'from the second root\n' });
  });
  afterEach(() => {
    ws.cleanup();
    other.cleanup();
  });

  it('answers every call of a piped session before it exits (printf … | bough mcp DIR)', async () => {
    const lines = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'printf', version: '0' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'reader', arguments: { action: 'read', path: 'a.txt' } },
      },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'bash', arguments: { command: 'sleep 1' } } },
    ];
    const child = spawnCli(['mcp', ws.root]);
    const out = collect(child.stdout);
    child.stdin?.end(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    expect(await exited(child)).toBe(0);
    const replies = out()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; result: { content: { text: string }[] } });
    expect(replies.map((reply) => reply.id).sort()).toEqual([1, 2, 3]);
    expect(replies.find((reply) => reply.id === 2)?.result.content[0]?.text).toBe('1\tfrom the first root');
  }, 30_000);

  it('serves several roots: relative paths in the first, absolute paths in any, nothing outside', async () => {
    const client = await connectClient([ws.root, other.root]);
    try {
      const first = await client.callTool({ name: 'reader', arguments: { action: 'read', path: 'a.txt' } });
      expect(text(first)).toBe('1\tfrom the first root');
      const second = await client.callTool({
        name: 'reader',
        arguments: { action: 'read', path: other.path('b.txt') },
      });
      expect(text(second)).toBe('1\tfrom the second root');
      // The read-before-edit guard holds per root: the read above lets this edit through.
      const edit = { action: 'edit', file_path: other.path('b.txt'), old_string: 'second', new_string: '2nd' };
      expect((await client.callTool({ name: 'editor', arguments: edit })).isError).toBeFalsy();
      const outside = await client.callTool({ name: 'reader', arguments: { action: 'read', path: '/etc/hostname' } });
      expect(outside.isError).toBe(true);
      expect(text(outside)).toMatch(/^Error \(outside_roots\)/);
      // Output schemas are advertised only on request (--output-schemas): most of the list's tokens, for the client.
      expect((await client.listTools()).tools.every((tool) => tool.outputSchema === undefined)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('without directories serves nothing until the client gives roots; never the cwd', async () => {
    const client = new Client({ name: 'no-roots', version: '0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp'], cwd: ws.root, stderr: 'ignore' }),
    );
    try {
      const read = await client.callTool({ name: 'reader', arguments: { action: 'read', path: 'a.txt' } });
      expect(read.isError).toBe(true);
      expect(text(read)).toMatch(/^Error \(no_roots\)/);
      expect(text(read)).not.toContain('from the first root');
    } finally {
      await client.close();
    }
  });

  it('refuses / as a root with exit 2', async () => {
    const child = spawnCli(['mcp', '/']);
    const err = collect(child.stderr);
    expect(await exited(child)).toBe(2);
    expect(err()).toMatch(/file system root/);
  });
});

describe('bough mcp over stdio with a 2026-07-28 client (SDK v2)', () => {
  it('answers without an initialize handshake and enforces the same guard', async () => {
    requireCliBuild();
    const ws = makeWorkspace({ 'a.txt': 'one\n' });
    const client = new ModernClient(
      { name: 'stdio-2026', version: '0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    try {
      await client.connect(
        new ModernStdioTransport({ command: process.execPath, args: [bin, 'mcp', ws.root], stderr: 'ignore' }),
      );
      expect(client.getProtocolEra()).toBe('modern');
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('reader');
      const edit = { action: 'edit', file_path: 'a.txt', old_string: 'one', new_string: 'two' };
      expect(text(await client.callTool({ name: 'editor', arguments: edit }))).toMatch(/^Error \(not_read\)/);
      expect(text(await client.callTool({ name: 'reader', arguments: { action: 'read', path: 'a.txt' } }))).toBe(
        '1\tone',
      );
      expect((await client.callTool({ name: 'editor', arguments: edit })).isError).toBeFalsy();
    } finally {
      await client.close();
      ws.cleanup();
    }
  }, 60_000);
});

describe('bough mcp --http', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    requireCliBuild();
    ws = makeWorkspace({ 'a.txt': 'one\n' });
  });
  afterEach(() => ws.cleanup());

  /** Starts the HTTP server on a free loopback port; resolves with its URL once it listens. */
  async function startHttp(env: Record<string, string>, extra: readonly string[] = []) {
    const child = spawn(process.execPath, [bin, 'mcp', '--http', '127.0.0.1:0', ...extra, ws.root], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...env },
    });
    const err = collect(child.stderr);
    for (let i = 0; i < 600 && !/at (http:\S+)/.test(err()); i++) {
      if (child.exitCode !== null) throw new Error(`server exited: ${err()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const url = /at (http:\S+)/.exec(err())?.[1];
    if (!url) throw new Error(`no URL in: ${err()}`);
    return { child, url, err };
  }

  async function session(url: string, token: string): Promise<Client> {
    const client = new Client({ name: 'http', version: '0' });
    const headers = { authorization: `Bearer ${token}` };
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    return client;
  }

  /** A client of the SDK's v2 packages pinned to the 2026-07-28 revision: no initialize, no session. */
  async function modernClient(url: string, token: string): Promise<ModernClient> {
    const client = new ModernClient(
      { name: 'http-2026', version: '0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const headers = { authorization: `Bearer ${token}` };
    await client.connect(new ModernHttpTransport(new URL(url), { requestInit: { headers } }));
    return client;
  }

  it('serves a 2026-07-28 and a 2025-11-25 client on one endpoint, sharing the read-before-edit state', async () => {
    const token = 'a-test-token-of-enough-length';
    const { child, url } = await startHttp({ BOUGH_MCP_TOKEN: token });
    const modern = await modernClient(url, token);
    const legacy = await session(url, token);
    try {
      expect(modern.getProtocolEra()).toBe('modern');
      await expect(session(url, `${token}-wrong`)).rejects.toMatchObject({ code: 401 });
      const edit = { action: 'edit', file_path: 'a.txt', old_string: 'one', new_string: 'two' };
      const refused = await legacy.callTool({ name: 'editor', arguments: edit });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/^Error \(not_read\)/);
      expect(text(await modern.callTool({ name: 'reader', arguments: { action: 'read', path: 'a.txt' } }))).toBe(
        '1\tone',
      );
      // No session: the read made through one client counts for the other.
      expect((await legacy.callTool({ name: 'editor', arguments: edit })).isError).toBeFalsy();
      expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('two\n');
    } finally {
      await legacy.close();
      await modern.close();
      child.kill('SIGTERM');
      expect(await exited(child)).toBe(143);
    }
  }, 60_000);

  it('needs the directories to serve: a stateless request cannot ask for roots (exit 2)', async () => {
    const child = spawnCli(['mcp', '--http', '127.0.0.1:0']);
    const err = collect(child.stderr);
    expect(await exited(child)).toBe(2);
    expect(err()).toMatch(/--http needs the directories/);
  });

  it('generates a token and prints it once when BOUGH_MCP_TOKEN is not set', async () => {
    const { child, url, err } = await startHttp({ BOUGH_MCP_TOKEN: '' });
    try {
      const token = /bearer token[^:]*: (\S+)/.exec(err())?.[1] ?? '';
      expect(token.length).toBeGreaterThanOrEqual(32);
      const client = await session(url, token);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
    } finally {
      child.kill('SIGTERM');
      await exited(child);
    }
  }, 60_000);
});

describe('bough mcp --sandbox', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    requireCliBuild();
    ws = makeWorkspace({ 'a.txt': 'one\n' });
  });
  afterEach(() => ws.cleanup());

  it('runs the toolkit bash in the chosen sandbox mode and says so on every result', async () => {
    const client = await connectClient([ws.root, '--sandbox', 'required', '--tools', 'bash']);
    try {
      const out = await client.callTool({ name: 'bash', arguments: { command: 'echo hi' } });
      const result = out.structuredContent as { sandboxed?: unknown; error_code?: unknown };
      // Where bubblewrap cannot make namespaces, `required` must refuse rather than run unsandboxed.
      if (out.isError) expect(result.error_code).toBe('sandbox_unavailable');
      else expect(result.sandboxed).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('refuses a mode it does not know, with exit 2', async () => {
    const child = spawnCli(['mcp', ws.root, '--sandbox', 'sometimes']);
    const err = collect(child.stderr);
    expect(await exited(child)).toBe(2);
    expect(err()).toMatch(/--sandbox takes off, auto or required/);
  });
});
