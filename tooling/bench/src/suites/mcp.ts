import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens } from '@bough/context';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type BenchRow, type BenchSuite, type LatencySummary, median, percentile, unmeasured } from '../harness.js';
import { benchRequire, count, generateTree, LINE_BYTES, repoRoot, size, writeNumberedLines } from './support.js';

const suite = 'mcp';

interface Server {
  label: string;
  client: Client;
  tools: Set<string>;
  note?: string;
}

async function connect(label: string, args: string[]): Promise<Server> {
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' });
  const client = new Client({ name: 'bough-bench', version: '0.0.0' });
  await client.connect(transport);
  const listed = await client.listTools();
  return { label, client, tools: new Set(listed.tools.map((tool) => tool.name)) };
}

async function connectOurs(root: string): Promise<Server> {
  const cli = join(repoRoot, 'packages/cli/dist/bin.js');
  if (existsSync(cli)) {
    try {
      const server = await connect('bough mcp', [cli, 'mcp', root]);
      server.note = 'ours: `bough mcp DIR`, the coding toolkit with its read-before-edit guard';
      return server;
    } catch {
      // fall through to the stand-in below
    }
  }
  const fallback = fileURLToPath(new URL('../mcp-fallback-server.js', import.meta.url));
  const server = await connect('bough (stand-in server)', [fallback, '--workspace', root]);
  server.note = 'served by tooling/bench mcp-fallback-server (the CLI `mcp` command is not built yet)';
  return server;
}

/** A bench-only server with the bare tool: bough's MCP stack (the floor) or a bare SDK server without bough. */
interface BareServer {
  /** Names its own files (`edit-<tag>.txt`, `out-<tag>-N.txt`) so runs never share state. */
  readonly tag: 'floor' | 'sdk1' | 'sdk2';
  readonly label: string;
  readonly script: string;
  readonly args: readonly string[];
  readonly row: (op: string) => string;
  readonly note: string;
}

const SETTLED = () => `p50 after ${WARM_UP_CALLS + SETTLE_CALLS} calls`;
const BARE_SERVERS: readonly BareServer[] = [
  {
    tag: 'floor',
    label: 'bough MCP stack, bare tool',
    script: '../mcp-floor-server.js',
    args: [],
    row: (op) => `${op}: bough's MCP stack with a bare tool (floor): ${SETTLED()}`,
    note: "the floor of ours: bough's stdio transport, MCP SDK v2 server, @bough/mcp dispatch and core registry serving a bare tool that does only the reference's file work (no workspace gate, read-before-edit guard or policy; writes to a temp file and renames like the reference), interleaved with a fresh run of the reference; the main row minus this one is what the coding toolkit's per-call guarantees cost; no goal",
  },
  ...(['v1', 'v2'] as const).map(
    (sdk): BareServer => ({
      tag: sdk === 'v1' ? 'sdk1' : 'sdk2',
      label: `bare MCP SDK ${sdk} server`,
      script: '../mcp-sdk-bare-server.js',
      args: [sdk],
      row: (op) => `${op}: the bare tool on MCP SDK ${sdk}'s own server, no bough: ${SETTLED()}`,
      note: `the SDK alone: ${sdk === 'v1' ? "@modelcontextprotocol/sdk 1.x (the reference's SDK)" : '@modelcontextprotocol/server 2.x (the SDK `bough mcp` is built on)'}, its stdio transport and low-level server serving the floor's bare tool (tooling/bench mcp-sdk-bare-server), interleaved with a fresh run of the reference; the floor row minus the v2 row is what @bough/mcp and the core registry add per call, the v2 row minus the v1 row what the newer SDK costs; no goal`,
    }),
  ),
];

/** Starts one bare server on `root`, or undefined when its script is not built or it does not start. */
async function connectBare(bare: BareServer, root: string): Promise<Server | undefined> {
  const script = fileURLToPath(new URL(bare.script, import.meta.url));
  if (!existsSync(script)) return undefined;
  try {
    return await connect(bare.label, [script, ...bare.args, root]);
  } catch {
    return undefined;
  }
}

/** Calls of the floor server's one tool. */
const bare = (args: Record<string, unknown>): Call => ({ name: 'bare', arguments: args });

function serverFilesystem(): string {
  const pkgPath = benchRequire.resolve('@modelcontextprotocol/server-filesystem/package.json');
  const bin = (JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin: string | Record<string, string> }).bin;
  const rel = typeof bin === 'string' ? bin : (Object.values(bin)[0] ?? 'dist/index.js');
  return join(dirname(pkgPath), rel);
}

interface Operation {
  name: string;
  /** What the row's short name leaves out, for its note. */
  detail?: string;
  /** Tool and arguments for the reference server (absolute paths), or a function of the call number. */
  theirs: (i: number) => { name: string; arguments: Record<string, unknown> };
  ours: (i: number) => { name: string; arguments: Record<string, unknown> };
  /** Calls made once before timing (the toolkit's read-before-edit guard wants the file read first). */
  prime?: { theirs: Call; ours: Call };
  /** A cheap call: also measured after {@link LONG_RUN_CALLS} calls per side (a few seconds more). */
  longRun?: boolean;
  /** The same file work on a bare server (bough's MCP stack or a bare SDK server), its files named by `tag`. */
  floor?: (i: number, tag: string) => Call;
  /** The reference's call beside a bare server, when its own call depends on state the main rows left behind. */
  floorTheirs?: (i: number, tag: string) => Call;
}

type Call = { name: string; arguments: Record<string, unknown> };

/** One side of an interleaved measurement: its server, its calls, and what went wrong. */
interface Side {
  readonly server: Server;
  readonly call: (i: number) => Call;
  readonly samples: number[];
  failures: number;
  lastError: string;
}

async function timedCall(side: Side, i: number): Promise<void> {
  const t0 = performance.now();
  const result = await side.server.client.callTool(side.call(i));
  side.samples.push(performance.now() - t0);
  if (result.isError) {
    side.failures++;
    const content = result.content as Array<{ text?: string }> | undefined;
    side.lastError = String(content?.[0]?.text ?? '').slice(0, 100);
  }
}

function summarise(side: Side, wallMs: number): LatencySummary | string {
  if (side.failures > 0) return `${side.failures} calls failed on ${side.server.label}: ${side.lastError}`;
  const { samples } = side;
  return {
    p50: median(samples),
    p95: percentile(samples, 95),
    perSecond: (samples.length * 1000) / Math.max(1, wallMs),
  };
}

/** Untimed calls made on each side before anything is recorded (the first call pays for loading code). */
const WARM_UP_CALLS = 3;
/** Timed calls right after the warm-up that make the "first calls" row: code V8 has not compiled yet. */
const FIRST_CALLS = 20;
/**
 * Calls (the first ones included) made on each side before the steady-state samples begin: by then V8 has compiled the
 * per-call code of either server, which is where a long-lived server spends its life.
 */
const SETTLE_CALLS = 100;

/** Why a pair of samples has no row: the reasons of the side (or sides) that could not be measured. */
function whyUnmeasured(...sides: (LatencySummary | string)[]): string {
  return sides.filter((side): side is string => typeof side === 'string').join('; ');
}

/**
 * Calls (the ones before included) each side has made before the long-run samples of a cheap operation: by then the
 * per-call code of either server has been optimised, so the row shows what is left once warm-up is over.
 */
const LONG_RUN_CALLS = 1000;

/** The samples of one side: its first calls after start-up, the calls after it settled and, if asked, the long run. */
interface Phases {
  readonly first: LatencySummary | string;
  readonly warm: LatencySummary | string;
  readonly long?: LatencySummary | string;
}

/**
 * Calls both servers in alternation (theirs then ours, then ours then theirs, …), so load on the shared machine falls
 * on both sides alike. Each side gets the same calls: {@link WARM_UP_CALLS} untimed, then {@link SETTLE_CALLS} timed
 * calls whose first {@link FIRST_CALLS} make the "first calls" figures, then `calls` timed calls for the steady-state
 * figures; those stop once 15 s have passed and at least 10 pairs were made. Throughput is calls per second of each
 * side's own busy time.
 */
async function measureBoth(
  theirs: Server,
  theirCall: (i: number) => Call,
  ours: Server,
  ourCall: (i: number) => Call,
  calls: number,
  longRun = false,
): Promise<[Phases, Phases]> {
  const a: Side = { server: theirs, call: theirCall, samples: [], failures: 0, lastError: '' };
  const b: Side = { server: ours, call: ourCall, samples: [], failures: 0, lastError: '' };
  for (const side of [a, b]) {
    const name = side.call(0).name;
    if (!side.server.tools.has(name)) {
      const missing = `${side.server.label} has no '${name}' tool`;
      return [
        { first: missing, warm: missing },
        { first: missing, warm: missing },
      ];
    }
  }
  const pair = async (i: number) => {
    const [first, second] = i % 2 === 0 ? [a, b] : [b, a];
    await timedCall(first, i);
    await timedCall(second, i);
  };
  for (let i = 0; i < WARM_UP_CALLS; i++) await pair(i);
  a.samples.length = 0;
  b.samples.length = 0;
  let i = WARM_UP_CALLS;
  for (; i < WARM_UP_CALLS + SETTLE_CALLS; i++) await pair(i);
  const busy = (side: Side) => side.samples.reduce((sum, ms) => sum + ms, 0);
  const firstOf = (side: Side) => {
    const first = { ...side, samples: side.samples.slice(0, FIRST_CALLS) };
    return summarise(first, busy(first));
  };
  const first: [LatencySummary | string, LatencySummary | string] = [firstOf(a), firstOf(b)];
  a.samples.length = 0;
  b.samples.length = 0;
  const timedPairs = async () => {
    const t0 = performance.now();
    for (let n = 0; n < calls; n++, i++) {
      await pair(i);
      if (n >= 10 && performance.now() - t0 > 15_000) break;
    }
  };
  await timedPairs();
  const warmA = summarise(a, busy(a));
  const warmB = summarise(b, busy(b));
  if (!longRun) {
    return [
      { first: first[0], warm: warmA },
      { first: first[1], warm: warmB },
    ];
  }
  for (; i < WARM_UP_CALLS + LONG_RUN_CALLS; i++) await pair(i);
  a.samples.length = 0;
  b.samples.length = 0;
  await timedPairs();
  return [
    { first: first[0], warm: warmA, long: summarise(a, busy(a)) },
    { first: first[1], warm: warmB, long: summarise(b, busy(b)) },
  ];
}

const textOf = (result: unknown) =>
  ((result as { content?: { type: string; text?: string }[] }).content ?? [])
    .map((part) => (part.type === 'text' ? (part.text ?? '') : ''))
    .join('');

/** Numbered rows (`<n>\t…`) in a reader text. */
const shownRows = (text: string) => text.split('\n').filter((line) => /^\d+\t/.test(line)).length;

/**
 * o200k tokens of the text a model reads for the same read on both servers (the reference sends the file as is; ours
 * adds a line number and a tab per line, and a notice when there is more to read).
 */
async function tokenRows(
  theirs: Server,
  ours: Server,
  abs: (rel: string) => string,
  small: string,
): Promise<BenchRow[]> {
  const peerLabel = '@modelcontextprotocol/server-filesystem';
  const reads = [
    {
      name: 'tokens of one read of a 2 kB file',
      theirs: { name: 'read_text_file', arguments: { path: abs(small) } },
      ours: { name: 'reader', arguments: { action: 'read', path: small } },
    },
    {
      name: 'tokens of one read of the first 2,000 lines of the big file',
      theirs: { name: 'read_text_file', arguments: { path: abs('big.txt'), head: 2000 } },
      ours: { name: 'reader', arguments: { action: 'read', path: 'big.txt', offset: 0, limit: 2000 } },
    },
  ];
  const rows: BenchRow[] = [];
  for (const read of reads) {
    const peerText = textOf(await theirs.client.callTool(read.theirs));
    const ourText = textOf(await ours.client.callTool(read.ours));
    const lines = peerText.replace(/\n$/, '').split('\n');
    // The reference's text with our row prefixes, plus our one-line notice when more follows: the goal to meet.
    const numbered = countTokens(lines.map((line, i) => `${i + 1}\t${line}`).join('\n'));
    const notice = ourText.endsWith(']') ? countTokens(ourText.slice(ourText.lastIndexOf('\n['))) : 0;
    const mine = countTokens(ourText);
    rows.push({
      suite,
      name: read.name,
      unit: 'tokens',
      ours: mine,
      peer: countTokens(peerText),
      peerLabel,
      goal: `≤ ${numbered + notice} (the reference numbered like ours${notice ? ', plus the continue notice' : ''})`,
      met: mine <= numbered + notice,
      note: `o200k_base; ${ourText.length} vs ${peerText.length} characters; ours shows ${shownRows(ourText)} of the reference's ${lines.length} lines, numbered${
        shownRows(ourText) < lines.length ? ' (the reader stops at its maxOutputBytes and says where to continue)' : ''
      }`,
    });
  }
  return rows;
}

/**
 * The reference against each bare server (bough's MCP stack serving a bare tool, and the SDK v1 and v2 servers
 * serving it without bough), for each operation that has a floor call: what the transport, the SDK and bough's
 * dispatch cost with none of the toolkit's per-call work. Measured after every other row, so the reference's extra
 * calls do not warm it up for them.
 */
async function floorRows(
  theirs: Server,
  root: string,
  ops: readonly Operation[],
  calls: number,
  log: (line: string) => void,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const bare of BARE_SERVERS) {
    const server = await connectBare(bare, root);
    if (!server) continue;
    try {
      for (const op of ops) {
        const { floor, floorTheirs } = op;
        if (!floor) continue;
        log(`${op.name} (${bare.label})`);
        const [peer, mine] = await measureBoth(
          theirs,
          floorTheirs ? (i) => floorTheirs(i, bare.tag) : op.theirs,
          server,
          (i) => floor(i, bare.tag),
          calls,
        );
        const name = bare.row(op.name);
        rows.push(
          typeof peer.warm === 'string' || typeof mine.warm === 'string'
            ? unmeasured(suite, name, 'ms', whyUnmeasured(peer.warm, mine.warm))
            : {
                suite,
                name,
                unit: 'ms',
                ours: mine.warm.p50,
                peer: peer.warm.p50,
                peerLabel: '@modelcontextprotocol/server-filesystem',
                note: bare.note,
              },
        );
      }
    } finally {
      await server.client.close();
    }
  }
  return rows;
}

/** The reference MCP filesystem server against bough's MCP server, same client, same workspace (issue 10). */
export const mcpSuite: BenchSuite = {
  name: 'mcp',
  async run({ scratch, scale, log }) {
    const rows: BenchRow[] = [];
    const root = join(scratch, 'ws');
    const tree = generateTree(join(root, 'tree'), { files: 2_000, avgBytes: 2_000 });
    const bigLines = Math.max(40_000, Math.round(400_000 * scale));
    writeNumberedLines(join(root, 'big.txt'), bigLines);
    const small = 'tree/pkg0/mod0/file1.js';
    for (const who of ['theirs', 'ours', ...BARE_SERVERS.flatMap(({ tag }) => [tag, `theirs-${tag}`])])
      writeFileSync(join(root, `edit-${who}.txt`), 'alpha\nEDIT_STATE_A\nomega\n');
    const payload = 'line of written text\n'.repeat(100);
    log(`workspace: ${count(tree.files)} files, big.txt ${size(bigLines * LINE_BYTES)}`);

    const abs = (rel: string) => join(root, rel);
    const edit = (i: number) => (i % 2 === 0 ? ['EDIT_STATE_A', 'EDIT_STATE_B'] : ['EDIT_STATE_B', 'EDIT_STATE_A']);
    const ops: Operation[] = [
      {
        name: 'read a 2 kB file',
        longRun: true,
        theirs: () => ({ name: 'read_text_file', arguments: { path: abs(small) } }),
        ours: () => ({ name: 'reader', arguments: { action: 'read', path: small } }),
        floor: () => bare({ action: 'read', path: small }),
      },
      {
        name: `read 2,000 lines of a ${size(bigLines * LINE_BYTES)} file`,
        detail: `the first 2,000 lines of a ${size(bigLines * LINE_BYTES)} file`,
        theirs: () => ({ name: 'read_text_file', arguments: { path: abs('big.txt'), head: 2000 } }),
        ours: () => ({ name: 'reader', arguments: { action: 'read', path: 'big.txt', offset: 0, limit: 2000 } }),
      },
      {
        name: 'write a 2 kB file',
        detail: 'the workspace default: no fsync, like the reference',
        longRun: true,
        theirs: (i) => ({ name: 'write_file', arguments: { path: abs(`out-theirs-${i % 10}.txt`), content: payload } }),
        ours: (i) => ({
          name: 'editor',
          arguments: { action: 'write', file_path: `out-ours-${i % 10}.txt`, content: payload },
        }),
        floor: (i, tag) => bare({ action: 'write', path: `out-${tag}-${i % 10}.txt`, content: payload }),
      },
      {
        name: 'edit one line of a small file',
        detail: 'no fsync, the default',
        longRun: true,
        theirs: (i) => {
          const [oldText, newText] = edit(i);
          return { name: 'edit_file', arguments: { path: abs('edit-theirs.txt'), edits: [{ oldText, newText }] } };
        },
        ours: (i) => {
          const [old_string, new_string] = edit(i);
          return { name: 'editor', arguments: { action: 'edit', file_path: 'edit-ours.txt', old_string, new_string } };
        },
        floor: (i, tag) => {
          const [old_string, new_string] = edit(i);
          return bare({ action: 'edit', path: `edit-${tag}.txt`, old_string, new_string });
        },
        floorTheirs: (i, tag) => {
          const [oldText, newText] = edit(i);
          return {
            name: 'edit_file',
            arguments: { path: abs(`edit-theirs-${tag}.txt`), edits: [{ oldText, newText }] },
          };
        },
        prime: {
          theirs: { name: 'read_text_file', arguments: { path: abs('edit-theirs.txt') } },
          ours: { name: 'reader', arguments: { action: 'read', path: 'edit-ours.txt' } },
        },
      },
      {
        name: `find '*.md' among ${count(tree.files)} files`,
        theirs: () => ({ name: 'search_files', arguments: { path: abs('tree'), pattern: '**/*.md' } }),
        ours: () => ({ name: 'search', arguments: { action: 'find', pattern: '*.md', path: 'tree' } }),
      },
      {
        name: 'list a directory of 50 files',
        longRun: true,
        theirs: () => ({ name: 'list_directory', arguments: { path: abs('tree/pkg0/mod1') } }),
        ours: () => ({ name: 'reader', arguments: { action: 'list_dir', path: 'tree/pkg0/mod1' } }),
        floor: () => bare({ action: 'list', path: 'tree/pkg0/mod1' }),
      },
    ];

    const theirs = await connect('server-filesystem', [serverFilesystem(), root]);
    const ours = await connectOurs(root);
    try {
      const calls = Math.max(30, Math.round(200 * scale));
      let noted = false;
      for (const op of ops) {
        log(op.name);
        if (op.prime) {
          await theirs.client.callTool(op.prime.theirs);
          await ours.client.callTool(op.prime.ours);
        }
        const [peerPhases, minePhases] = await measureBoth(theirs, op.theirs, ours, op.ours, calls, op.longRun);
        const peerLabel = '@modelcontextprotocol/server-filesystem';
        const peer = peerPhases.warm;
        const mine = minePhases.warm;
        if (typeof peer === 'string' || typeof mine === 'string') {
          const reason = whyUnmeasured(peer, mine);
          const extra = typeof peer === 'string' ? {} : { peer: peer.p50, peerLabel };
          rows.push(
            unmeasured(suite, `${op.name}: p50 after ${WARM_UP_CALLS + SETTLE_CALLS} calls`, 'ms', reason, extra),
          );
          continue;
        }
        const serverNote = ours.note && !noted ? `${ours.note}; ` : '';
        noted = true;
        const peerFirst = peerPhases.first;
        const mineFirst = minePhases.first;
        if (typeof peerFirst !== 'string' && typeof mineFirst !== 'string') {
          rows.push({
            suite,
            name: `${op.name}: p50 of calls ${WARM_UP_CALLS + 1}–${WARM_UP_CALLS + FIRST_CALLS}`,
            detail: op.detail,
            unit: 'ms',
            ours: mineFirst.p50,
            peer: peerFirst.p50,
            peerLabel,
            note: `${serverNote}the first timed calls of this operation on each side (after ${WARM_UP_CALLS} untimed), before V8 has compiled the code they run; no goal`,
          });
        }
        rows.push({
          suite,
          name: `${op.name}: p50 after ${WARM_UP_CALLS + SETTLE_CALLS} calls`,
          detail: op.detail,
          unit: 'ms',
          ours: mine.p50,
          peer: peer.p50,
          peerLabel,
          goal: '≤ 1.0×',
          met: mine.p50 <= peer.p50,
          note: `up to ${calls} more calls per side once both had made the same ${WARM_UP_CALLS + SETTLE_CALLS} (${WARM_UP_CALLS} untimed), interleaved`,
        });
        const peerLong = peerPhases.long;
        const mineLong = minePhases.long;
        if (peerLong !== undefined && mineLong !== undefined) {
          const name = `${op.name}: p50 after ${count(WARM_UP_CALLS + LONG_RUN_CALLS)} calls`;
          rows.push(
            typeof peerLong === 'string' || typeof mineLong === 'string'
              ? unmeasured(suite, name, 'ms', whyUnmeasured(peerLong, mineLong))
              : {
                  suite,
                  name,
                  detail: op.detail,
                  unit: 'ms',
                  ours: mineLong.p50,
                  peer: peerLong.p50,
                  peerLabel,
                  note: `the same interleaved calls once each side has made ${count(WARM_UP_CALLS + LONG_RUN_CALLS)} (the per-call code of both servers optimised by V8): what is left of the gap after warm-up; no goal`,
                },
          );
        }
        rows.push({
          suite,
          name: `${op.name}: p95 after ${WARM_UP_CALLS + SETTLE_CALLS} calls`,
          detail: op.detail,
          unit: 'ms',
          ours: mine.p95,
          peer: peer.p95,
          peerLabel,
        });
        rows.push({
          suite,
          name: `${op.name}: throughput after ${WARM_UP_CALLS + SETTLE_CALLS} calls`,
          detail: op.detail,
          unit: 'calls/s',
          ours: mine.perSecond,
          peer: peer.perSecond,
          peerLabel,
          lowerIsBetter: false,
        });
      }
      rows.push(...(await tokenRows(theirs, ours, abs, small)));
      rows.push(...(await floorRows(theirs, root, ops, calls, log)));
    } finally {
      await theirs.client.close();
      await ours.client.close();
    }
    return rows;
  },
};
