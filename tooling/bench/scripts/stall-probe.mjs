// Starts the built `bough mcp --http` on a scratch directory, sends one heavy editor call from session A, and meanwhile
// `tools/list` from session B every 20 ms; prints B's latencies (max, p50) and A's time. Run after `pnpm build`:
//   node tooling/bench/scripts/stall-probe.mjs [patch|miss|flat]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const bin = process.env.BOUGH_BIN ?? resolve(import.meta.dirname, '../../../packages/cli/dist/bin.js');
const which = process.argv[2] ?? 'patch';
const dir = mkdtempSync(join(tmpdir(), 'stall-probe-'));
const LINES = 80_000;
let call;
if (which === 'patch') {
  writeFileSync(join(dir, 'big.txt'), Array.from({ length: LINES }, (_, i) => `line ${i}\n`).join(''));
  const patch = `*** Begin Patch\n*** Update File: big.txt\n${Array.from({ length: LINES }, (_, i) => `@@\n-line ${i}\n+LINE ${i}\n`).join('')}*** End Patch\n`;
  call = { name: 'edit', arguments: { action: 'patch', patch } };
} else if (which === 'miss') {
  writeFileSync(join(dir, 'miss.txt'), '    x = 1;\n'.repeat(50_000));
  call = {
    name: 'edit',
    arguments: {
      action: 'edit',
      file_path: 'miss.txt',
      old_string: `${'x = 1;\n'.repeat(500)}y = 2;\n`,
      new_string: 'z',
    },
  };
} else {
  writeFileSync(join(dir, 'flat.txt'), 'a'.repeat(2_000_000));
  call = {
    name: 'edit',
    arguments: {
      action: 'edit',
      file_path: 'flat.txt',
      old_string: `${'a'.repeat(1500)}b${'a'.repeat(1500)}`,
      new_string: 'z',
    },
  };
}
const token = 'a-probe-token-of-enough-length';
// The server records its own event-loop pauses (scripts/loop-pauses.mjs), so a loaded machine's scheduling delays
// can be told apart from the server blocking its loop.
const pausesFile = join(dir, '..', `${dir.split('/').at(-1)}-pauses.json`);
const child = spawn(
  process.execPath,
  ['--import', resolve(import.meta.dirname, 'loop-pauses.mjs'), bin, 'mcp', '--http', '127.0.0.1:0', dir],
  {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, BOUGH_MCP_TOKEN: token, BOUGH_LOOP_PAUSES: pausesFile },
  },
);
let err = '';
child.stderr.on('data', (d) => (err += d));
while (!/at (http:\S+)/.test(err)) await new Promise((r) => setTimeout(r, 50));
const url = new URL(/at (http:\S+)/.exec(err)[1]);
const session = async () => {
  const c = new Client({ name: 'probe', version: '0' });
  await c.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return c;
};
const [a, b] = [await session(), await session()];
const tools = (await a.listTools()).tools.map((t) => t.name);
const editTool = tools.includes('edit') ? 'edit' : tools.find((t) => /edit/.test(t));
// The editor refuses to change a file this conversation has not read.
const file = { patch: 'big.txt', miss: 'miss.txt' }[which] ?? 'flat.txt';
const read = await a.callTool({ name: 'reader', arguments: { action: 'read', path: file } });
if (read.isError) throw new Error(JSON.stringify(read.content).slice(0, 300));
// Idle latency of tools/list first, for comparison.
const idle = [];
for (let i = 0; i < 10; i++) {
  const t = performance.now();
  await b.listTools();
  idle.push(performance.now() - t);
}
const latencies = [];
let running = true;
const lister = (async () => {
  while (running) {
    const t0 = performance.now();
    await b.listTools();
    latencies.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 20));
  }
})();
const t0 = performance.now();
const from = Date.now();
const out = await a.callTool({ ...call, name: editTool }, undefined, { timeout: 600_000 });
const took = performance.now() - t0;
const until = Date.now();
running = false;
await lister;
const sorted = [...latencies].sort((x, y) => x - y);
const text = out.content?.[0]?.text ?? '';
await a.close();
await b.close();
const exited = new Promise((r) => child.once('exit', r));
child.kill('SIGTERM');
await exited;
let pauses = [];
try {
  pauses = JSON.parse(readFileSync(pausesFile, 'utf8')).filter((p) => p.at + p.wall_ms >= from && p.at <= until);
} catch {
  // the server did not write them (an older build, or it was killed): the row goes without
}
const longest = (key) => Math.max(0, ...pauses.map((p) => p[key]));
console.log(
  JSON.stringify({
    case: which,
    a_ms: Math.round(took),
    a_answer: text.slice(0, 100),
    idle_max_ms: Math.round(Math.max(...idle)),
    b_calls: latencies.length,
    b_max_ms: Math.round(sorted.at(-1)),
    b_p50_ms: Math.round(sorted[Math.floor(sorted.length / 2)]),
    pause_wall_ms: longest('wall_ms'),
    pause_cpu_ms: longest('cpu_ms'),
    load: loadavg().map((l) => l.toFixed(1)),
  }),
);
rmSync(dir, { recursive: true, force: true });
rmSync(pausesFile, { force: true });
