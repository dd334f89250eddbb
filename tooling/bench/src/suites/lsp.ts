import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_LANGUAGE_SERVERS, LspClient } from '@bough/lsp';
import { type BenchRow, type BenchSuite, median, unmeasured } from '../harness.js';
import { BareClient } from './lsp-bare-client.js';
import { repoRoot } from './support.js';

const suite = 'lsp';
const PATH = [join(repoRoot, 'packages/lsp/node_modules/.bin'), process.env.PATH ?? ''].join(delimiter);
const ENV = { PATH, HOME: process.env.HOME ?? '/tmp', GOPROXY: 'off', GOFLAGS: '-mod=mod' };

function installed(program: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore', env: { PATH } });
    return true;
  } catch {
    return false;
  }
}

/** The argv @bough/lsp starts a server with: the bare client starts the very same, so both servers do the same work. */
function argvOf(server: string): readonly string[] {
  const config = DEFAULT_LANGUAGE_SERVERS.find((entry) => entry.id === server);
  if (!config) throw new Error(`no default configuration for ${server}`);
  return config.command;
}

interface Project {
  readonly server: string;
  readonly argv: readonly string[];
  readonly languageId: string;
  /** Files of the project; `file` holds the symbol, `edit` breaks it and back. */
  readonly files: Record<string, string>;
  readonly file: string;
  readonly position: { line: number; character: number };
  readonly broken: (text: string) => string;
}

// A package of 60 functions each called from a second file: enough references to make the answer non-trivial.
function goProject(): Project {
  const funcs = Array.from({ length: 60 }, (_, i) => `func F${i}(n int) int {\n\treturn Add(n, ${i})\n}\n`).join('\n');
  const calls = Array.from({ length: 60 }, (_, i) => `\tprintln(F${i}(${i}), Add(${i}, 1))`).join('\n');
  return {
    server: 'gopls',
    argv: argvOf('gopls'),
    languageId: 'go',
    files: {
      'go.mod': 'module example.com/bench\n\ngo 1.19\n',
      'calc.go': `package main\n\nfunc Add(a int, b int) int {\n\treturn a + b\n}\n\n${funcs}`,
      'main.go': `package main\n\nfunc main() {\n${calls}\n}\n`,
    },
    file: 'calc.go',
    position: { line: 2, character: 6 },
    broken: (text) => text.replace('return a + b', 'return a + "b"'),
  };
}

function cProject(): Project {
  const funcs = Array.from({ length: 60 }, (_, i) => `int f${i}(int n) { return add(n, ${i}); }`).join('\n');
  return {
    server: 'clangd',
    argv: argvOf('clangd'),
    languageId: 'c',
    files: {
      'compile_flags.txt': '-std=c11\n',
      'calc.c': `static int add(int a, int b) {\n  return a + b;\n}\n\n${funcs}\n`,
    },
    file: 'calc.c',
    position: { line: 0, character: 11 },
    broken: (text) => text.replace('return a + b;', 'return a + missing;'),
  };
}

async function measure(project: Project, root: string, rounds: number, log: (m: string) => void): Promise<BenchRow[]> {
  mkdirSync(root, { recursive: true });
  for (const [file, text] of Object.entries(project.files)) writeFileSync(join(root, file), text);
  const path = join(root, project.file);
  const uri = pathToFileURL(path).href;
  const text = readFileSync(path, 'utf8');

  // Both sides run at once, each with its own server, and the rounds alternate between them, so the load of a shared
  // machine falls on both alike. Bare: the protocol alone. Ours: LspClient (workspace gate, disk read, versions).
  const bare = new BareClient(project.argv, root, ENV);
  const client = new LspClient({ workspaceRoot: root, baseEnv: ENV });
  const ourRefs: number[] = [];
  const ourDiag: number[] = [];
  const bareRefs: number[] = [];
  const bareDiag: number[] = [];
  let rss: number | undefined;
  try {
    await bare.initialize(root);
    const opened = bare.published(uri, 1);
    await bare.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: project.languageId, version: 1, text },
    });
    await opened;
    const first = await client.diagnostics(project.file);
    if (!first.success) throw new Error(first.error);
    const refParams = { textDocument: { uri }, position: project.position, context: { includeDeclaration: true } };
    const bareRef = async () => {
      const t0 = performance.now();
      await bare.connection.sendRequest('textDocument/references', refParams);
      return performance.now() - t0;
    };
    const ourRef = async () => {
      const t0 = performance.now();
      const got = await client.references(project.file, project.position);
      if (!got.success) throw new Error(got.error);
      return performance.now() - t0;
    };
    // Which side goes first alternates too: the second request of a pair tends to find the machine warmer. A warm
    // request costs about a millisecond, so five times the edit rounds keep the medians steady on a loaded machine.
    for (let i = 0; i < 5 * rounds + 2; i++) {
      const bareFirst = i % 2 === 0;
      const first = bareFirst ? await bareRef() : await ourRef();
      const second = bareFirst ? await ourRef() : await bareRef();
      if (i < 2) continue;
      bareRefs.push(bareFirst ? first : second);
      ourRefs.push(bareFirst ? second : first);
    }
    // The edit rounds alternate which side goes first as well: a server still finishing the previous round's work
    // (gopls checks the other files of the package after it published the edited one) slows whoever comes next.
    let version = 1;
    const bareEdit = async (next: string) => {
      version++;
      const done = bare.published(uri, version);
      const t0 = performance.now();
      await bare.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [{ text: next }],
      });
      await done;
      bareDiag.push(performance.now() - t0);
    };
    const ourEdit = async (next: string) => {
      writeFileSync(path, next);
      const t0 = performance.now();
      const got = await client.diagnostics(project.file);
      ourDiag.push(performance.now() - t0);
      if (!got.success || !got.fresh) throw new Error(got.success ? `not fresh: ${got.note}` : got.error);
    };
    // Twice the given rounds: an edit costs a few milliseconds on gopls, and the medians of 40 stay steady under load.
    for (let i = 0; i < 2 * rounds; i++) {
      const next = i % 2 === 0 ? project.broken(text) : text;
      if (i % 4 < 2) {
        await bareEdit(next);
        await ourEdit(next);
      } else {
        await ourEdit(next);
        await bareEdit(next);
      }
    }
    rss = client.running()[0]?.rssBytes;
  } finally {
    await bare.close();
    await client.dispose();
  }
  log(`${project.server}: refs ${median(ourRefs).toFixed(2)} vs ${median(bareRefs).toFixed(2)} ms`);
  const rows: BenchRow[] = [];
  const refs = { ours: median(ourRefs), peer: median(bareRefs) };
  rows.push({
    suite,
    name: `${project.server}: warm references`,
    unit: 'ms per call',
    ...refs,
    peerLabel: 'bare LSP client',
    lowerIsBetter: true,
    goal: '≤ 1.2×',
    met: refs.ours <= 1.2 * refs.peer,
    note: 'both servers run in their own session and process group, as @bough/lsp must run them',
  });
  const diag = { ours: median(ourDiag), peer: median(bareDiag) };
  rows.push({
    suite,
    name: `${project.server}: diagnostics after an edit (exact version)`,
    unit: 'ms per edit',
    ...diag,
    peerLabel: 'server publish time, bare client',
    lowerIsBetter: true,
    goal: '≤ 1.2×',
    met: diag.ours <= 1.2 * diag.peer,
    note: 'ours includes reading the written file from disk (in place when the gate already allowed its path); the bare client sends text it holds',
  });
  if (rss !== undefined)
    rows.push({
      suite,
      name: `${project.server}: RSS after the run`,
      unit: 'MB',
      ours: rss / 1e6,
      lowerIsBetter: true,
    });
  return rows;
}

/** Language servers through @bough/lsp against a bare client on the same servers (gopls, clangd). */
export const lspSuite: BenchSuite = {
  name: suite,
  async run({ scratch, scale, log }) {
    const rounds = Math.max(5, Math.round(20 * scale));
    const rows: BenchRow[] = [];
    for (const project of [goProject(), cProject()]) {
      if (!installed(project.argv[0] as string)) {
        rows.push(
          unmeasured(suite, `${project.server}: warm references`, 'ms per call', `${project.server} not installed`),
        );
        continue;
      }
      rows.push(...(await measure(project, join(scratch, project.server), rounds, log)));
    }
    // Memory of the npm servers too (no timing rows: these servers publish without versions).
    for (const [server, file, text] of [
      ['typescript-language-server', 'main.ts', 'export const n: number = 1;\n'],
      ['pyright-langserver', 'main.py', 'n: int = 1\n'],
    ] as const) {
      if (!installed(server)) continue;
      const root = join(scratch, server);
      mkdirSync(root, { recursive: true });
      writeFileSync(join(root, file), text);
      const client = new LspClient({ workspaceRoot: root, baseEnv: ENV });
      try {
        await client.diagnostics(file);
        const rss = client.running()[0]?.rssBytes;
        if (rss !== undefined) rows.push({ suite, name: `${server}: RSS after one file`, unit: 'MB', ours: rss / 1e6 });
      } finally {
        await client.dispose();
      }
    }
    return rows;
  },
};
