import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { CLI_BIN, exited, makeWorkspace, requireCliBuild, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The MCP Inspector's current line (2.x, pinned as the `mcp-inspector-2` alias) drives `bough mcp --http` with a
// bearer token: its `--cli` mode makes one request (tools/list, tools/call), prints the JSON answer and exits. It
// needs no network (checked in a network namespace with only loopback) but declares Node >= 22.19, so on an older
// Node the tests are skipped; CI's Node 24 line runs them. The 0.15 inspector of mcp-inspector.test.ts sends no
// headers, so it cannot reach the HTTP server.
const run = promisify(execFile);
const manifestPath = createRequire(import.meta.url).resolve('mcp-inspector-2/package.json');
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
  bin: Record<string, string>;
  engines: { node: string };
};
const INSPECTOR = join(dirname(manifestPath), manifest.bin['mcp-inspector'] as string);
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const wanted = /(\d+)\.(\d+)/.exec(manifest.engines.node);
const supported =
  wanted !== null && (major > Number(wanted[1]) || (major === Number(wanted[1]) && minor >= Number(wanted[2])));
const SLOW = { timeout: 120_000 };
const TOKEN = 'an-inspector-test-token-long-enough';

type Answer = {
  tools?: { name: string; inputSchema: unknown }[];
  content?: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

/** Starts `bough mcp --http` on a free loopback port; resolves with its URL once the server says where it listens. */
async function startHttp(root: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI_BIN, 'mcp', '--http', '127.0.0.1:0', root], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, BOUGH_MCP_TOKEN: TOKEN },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      err += chunk;
      const found = /at (http:\S+)/.exec(err)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', () => reject(new Error(`bough mcp --http exited: ${err}`)));
  });
  return { child, url };
}

describe.skipIf(!supported)(
  `bough mcp --http driven by the MCP Inspector 2.x --cli with a bearer token (runs on Node ${manifest.engines.node}, the inspector's engines; this is ${process.versions.node})`,
  () => {
    let ws: TempWorkspace;
    let home: string;
    let server: { child: ChildProcess; url: string };
    beforeEach(async () => {
      requireCliBuild();
      ws = makeWorkspace({ 'a.txt': 'one\n' });
      // The inspector keeps its state under HOME; a temp one keeps the user's home untouched.
      home = mkdtempSync(join(tmpdir(), 'bough-inspector-home-'));
      server = await startHttp(ws.root);
    });
    afterEach(async () => {
      server.child.kill('SIGTERM');
      await exited(server.child);
      ws.cleanup();
      rmSync(home, { recursive: true, force: true });
    });

    /** One inspector request; --stored-auth-only keeps it from starting an interactive OAuth flow. */
    const inspect = (token: string, ...method: string[]) =>
      run(
        process.execPath,
        [INSPECTOR, '--cli', server.url, '--stored-auth-only', '--header', `Authorization: Bearer ${token}`, ...method],
        { cwd: home, env: { ...process.env, HOME: home }, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      );

    it('lists the tools and calls one with the token', SLOW, async () => {
      const listed = JSON.parse((await inspect(TOKEN, '--method', 'tools/list')).stdout) as Answer;
      const names = (listed.tools ?? []).map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['reader', 'editor', 'search', 'bash']));
      for (const tool of listed.tools ?? []) expect(tool.inputSchema).toMatchObject({ type: 'object' });

      const call = ['--method', 'tools/call', '--tool-name', 'reader', '--tool-arg', 'action=read', '--tool-arg'];
      const answer = JSON.parse((await inspect(TOKEN, ...call, 'path=a.txt')).stdout) as Answer;
      expect(answer.isError).toBeUndefined();
      expect(answer.content).toEqual([{ type: 'text', text: '1\tone' }]);
      expect(answer.structuredContent).toMatchObject({ success: true, relative: 'a.txt', total_lines: 1 });
    });

    it('gets nothing with a wrong token', SLOW, async () => {
      const refused = await inspect(`${TOKEN}-wrong`, '--method', 'tools/list').then(
        () => undefined,
        (error: { code?: number; stdout?: string }) => error,
      );
      expect(refused, 'the inspector exits non-zero').toBeDefined();
      expect(refused?.code).not.toBe(0);
      expect(refused?.stdout ?? '').not.toContain('reader');
    });
  },
);
