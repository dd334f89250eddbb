import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { protectedGlobArgs } from '@bough/search';
import { rgPath } from '@vscode/ripgrep';
import { type BenchRow, type BenchSuite, median, pairedMedians, timeCommand, unmeasured } from '../harness.js';
import {
  count,
  filesUnder,
  findStdlib,
  generateTree,
  type LooseHandler,
  loadExport,
  NEEDLE_LITERAL,
  NEEDLE_REGEX,
  repoRoot,
  size,
} from './support.js';

const suite = 'search+bash';

// What @bough/search passes ripgrep for grep with default limits (see packages/search/src/grep.ts); exact_skips adds
// --debug.
const OUR_GREP_FLAGS = [
  '--no-config',
  '--hidden',
  '--no-require-git',
  '--color=never',
  '--iglob=!.git',
  '--no-heading',
  '--with-filename',
  '--line-number',
  '--byte-offset',
  '--null',
  '--max-columns=1600',
  '--max-columns-preview',
  '--max-filesize=20971520',
  '--case-sensitive',
];
// The default protected-name exclusions, from the search package itself so the floor cannot drift from it.
const PROTECTED_GLOBS = protectedGlobArgs();

function plainSpawn(argv: readonly string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

interface Target {
  label: string;
  /** The tree in a few words, for the row's short name (the label goes into its detail). */
  short: string;
  root: string;
  /** Files in the tree are gitignored (node_modules): both sides search ignored files. */
  ignored: boolean;
  /** The grep cases to run (default: a literal and a regex fit for the tree); `kind` is shown in the row name. */
  cases?: readonly GrepCase[];
  /** The find glob of a real tree. */
  glob?: string;
}

interface GrepCase {
  readonly kind: string;
  readonly pattern: string;
  readonly fixed: boolean;
}

/**
 * The real trees of the rows: a fresh `git clone` of this repository (no node_modules, its own .gitignore), the
 * repository's node_modules, and a standard library when the machine has one. Each label names the tree and its files.
 */
function realTrees(scratch: string, log: (message: string) => void): Target[] {
  const targets: Target[] = [];
  const clone = join(scratch, 'bough-clone');
  const cloned = spawnSync('git', ['clone', '--quiet', '--no-hardlinks', repoRoot, clone], { encoding: 'utf8' });
  if (cloned.status === 0) {
    const files = filesUnder(clone);
    log(`git clone of this repository: ${count(files)} files`);
    targets.push({
      label: `a git clone of this repository (${count(files)} files with .git)`,
      short: 'a clone of this repo',
      root: clone,
      ignored: false,
      cases: [
        { kind: 'literal', pattern: 'import {', fixed: true },
        { kind: 'regex', pattern: 'export (async )?function [a-z]+', fixed: false },
        { kind: 'no match', pattern: 'zq_no_such_text_anywhere', fixed: true },
      ],
      glob: '*.ts',
    });
  } else log(`git clone failed: ${cloned.stderr.slice(0, 200)}`);
  const modules = join(repoRoot, 'node_modules');
  const moduleFiles = filesUnder(modules);
  targets.push({
    label: `the repo's node_modules (${count(moduleFiles)} files)`,
    short: 'node_modules',
    root: modules,
    ignored: true,
    cases: [
      { kind: 'literal', pattern: 'createRequire', fixed: true },
      { kind: 'regex', pattern: 'function [a-z]+Sync\\(', fixed: false },
    ],
    glob: '*.json',
  });
  const stdlib = findStdlib();
  if (stdlib) {
    targets.push({
      label: `the Python standard library at ${stdlib.root} (${count(stdlib.files)} files)`,
      short: 'the Python stdlib',
      root: stdlib.root,
      ignored: false,
      cases: [
        { kind: 'literal', pattern: 'import os', fixed: true },
        { kind: 'regex', pattern: 'def [a-z_]+\\(self', fixed: false },
        { kind: 'no match', pattern: 'zq_no_such_text_anywhere', fixed: true },
      ],
      glob: '*.py',
    });
  } else log('no language standard library found; that row is left out');
  return targets;
}

/**
 * grep and find where a tree ignores its build outputs file by file (`*.o` beside the sources, as an in-tree C build
 * leaves them): ripgrep's skip log then has a line per ignored file, and past `skipLogBytes` the search runs again
 * without it. Rows against ripgrep alone and against the same handler with the budget lifted (the cost before it).
 */
async function ignoredHeavyRows(
  search: LooseHandler,
  scratch: string,
  scale: number,
  runs: number,
): Promise<BenchRow[]> {
  const root = join(scratch, 'ignored-heavy');
  const dirs = Math.max(50, Math.round(500 * scale));
  mkdirSync(root);
  writeFileSync(join(root, '.gitignore'), '*.o\n');
  for (let d = 0; d < dirs; d++) {
    const dir = join(root, `d${d}`);
    mkdirSync(dir);
    for (let f = 0; f < 10; f++) writeFileSync(join(dir, `f${f}.c`), `int f${d}_${f};\n`);
    for (let o = 0; o < 100; o++) writeFileSync(join(dir, `o${o}.o`), 'obj\n');
  }
  const label = `a tree ignoring ${count(dirs * 100)} build outputs one by one ('*.o' beside ${count(dirs * 10)} sources)`;
  const lifted = { workspaceRoot: root, limits: { skipLogBytes: 2 ** 31 } };
  const rows: BenchRow[] = [];
  const cases = [
    {
      name: "grep literal, '*.o' ignored one by one",
      detail: `grep literal /f7_7;/ in ${label}`,
      request: { action: 'grep', pattern: 'f7_7;', fixed_strings: true },
      rg: [rgPath, '-n', '-F', 'f7_7;'],
      rgLabel: 'rg -n (same binary)',
    },
    {
      name: "find '*.c', '*.o' ignored one by one",
      detail: `find '*.c' in ${label}`,
      request: { action: 'find', pattern: '*.c' },
      rg: [rgPath, '--files', '-g', '*.c'],
      rgLabel: 'rg --files -g',
    },
  ];
  for (const c of cases) {
    const [t, rg] = await pairedMedians(
      () => ours(search, root, c.request),
      () => plainSpawn(c.rg, root),
      runs,
      1,
    );
    rows.push({
      suite,
      name: c.name,
      detail: c.detail,
      unit: 'ms',
      ours: t,
      peer: rg,
      peerLabel: c.rgLabel,
      note: 'skip counts flagged as lower bounds (skipped.lower_bound)',
    });
    const [t2, before] = await pairedMedians(
      () => ours(search, root, c.request),
      // grep keeps a log only for exact_skips, and then the whole of it; find's log is cut at skipLogBytes.
      () =>
        c.request.action === 'grep'
          ? search({ ...c.request, exact_skips: true }, { workspaceRoot: root })
          : search(c.request, lifted),
      3,
      0,
    );
    rows.push({
      suite,
      name: c.name,
      detail: `${c.detail}, against the same search keeping ripgrep's whole log (grep: exact_skips; find: skipLogBytes lifted): ripgrep logs every ignored file, about 50 unbuffered writes a line`,
      unit: 'ms',
      ours: t2,
      peer: before,
      peerLabel: 'ours, skip-log budget lifted',
    });
  }
  return rows;
}

async function ours(search: LooseHandler, root: string, request: Record<string, unknown>): Promise<number> {
  const response = await search(request, { workspaceRoot: root });
  if (response.success === false) throw new Error(`search failed: ${String(response.error)}`);
  return Number(response.count ?? 0);
}

/** grep (literal and regex) through handleSearch against rg and GNU grep on the same tree. */
async function grepRows(search: LooseHandler, target: Target, runs: number, gnu: boolean): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const cwd = target.root;
  const noIgnore = target.ignored ? ['--no-ignore'] : [];
  const cases: readonly GrepCase[] = target.cases ?? [
    { kind: 'literal', pattern: NEEDLE_LITERAL, fixed: true },
    { kind: 'regex', pattern: NEEDLE_REGEX, fixed: false },
  ];
  for (const c of cases) {
    const request = {
      action: 'grep',
      pattern: c.pattern,
      ...(c.fixed ? { fixed_strings: true } : {}),
      ...(target.ignored ? { include_ignored: true } : {}),
    };
    let found = 0;
    const rgArgv = [
      rgPath,
      '--no-config',
      '--hidden',
      ...noIgnore,
      '-n',
      ...(c.fixed ? ['-F'] : []),
      '-e',
      c.pattern,
      '.',
    ];
    // The floor: ripgrep alone with the flags our guarantees need (NUL-separated names, byte offsets for confirming
    // large files, line cap, size cap, protected-name exclusions), timed in the same alternation as the plain peer.
    const floorArgv = [
      rgPath,
      ...OUR_GREP_FLAGS,
      ...noIgnore,
      ...(c.fixed ? ['--fixed-strings'] : []),
      ...PROTECTED_GLOBS,
      `--regexp=${c.pattern}`,
      '--',
      '.',
    ];
    // The same flags with --debug: what ripgrep costs for a request with exact_skips (exact skip counts).
    const withLogArgv = [rgPath, '--debug', ...floorArgv.slice(1)];
    const rgSamples: number[] = [];
    const floorSamples: number[] = [];
    const withLogSamples: number[] = [];
    const gnuSamples: number[] = [];
    const gnuArgv = ['grep', '-rn', '-E', '-e', c.pattern, '.'];
    const [t] = await pairedMedians(
      async () => {
        found = await ours(search, cwd, request);
      },
      async () => {
        rgSamples.push(await timeCommand(rgArgv, { cwd, drain: true, okCodes: [0, 1] }));
        floorSamples.push(await timeCommand(floorArgv, { cwd, drain: true, okCodes: [0, 1], stderrToFile: true }));
        withLogSamples.push(await timeCommand(withLogArgv, { cwd, drain: true, okCodes: [0, 1], stderrToFile: true }));
        if (gnu) gnuSamples.push(await timeCommand(gnuArgv, { cwd, drain: true, okCodes: [0, 1] }));
      },
      runs,
    );
    // pairedMedians drops its warm-up round; drop the same first samples here.
    const rg = median(rgSamples.slice(1));
    const floor = median(floorSamples.slice(1));
    const withLog = median(withLogSamples.slice(1));
    const name = `grep ${c.kind} in ${target.short}`;
    const detail = `grep ${c.kind} /${c.pattern}/ in ${target.label} (${count(found)} matching lines)`;
    rows.push({
      suite,
      name,
      detail,
      unit: 'ms',
      ours: t,
      peer: rg,
      peerLabel: 'rg -n (same binary)',
      goal: '≤ 1.3×',
      met: t <= 1.3 * rg,
    });
    rows.push({
      suite,
      name,
      unit: 'ms',
      ours: t,
      detail,
      peer: floor,
      peerLabel: 'rg with our flags, unsorted (floor)',
      note:
        `the floor: ripgrep alone with the flags our guarantees need costs ${(floor / rg).toFixed(2)}× rg -n here ` +
        `(${(withLog / rg).toFixed(2)}× with --debug, which grep adds only for exact_skips). --debug is the one flag ` +
        'that costs more than noise: it is the only place ripgrep names the binary files it stopped reading (one ' +
        'line per binary file, about 14 unbuffered writes each under the stderr lock its search threads share), so ' +
        'by default grep runs without it and reports the skip counts as lower bounds (skipped.lower_bound). Byte ' +
        'offsets and NUL-separated names (to confirm each shown line through the workspace gate) and the ' +
        'protected-name glob (so those files are never opened) cost no more than noise; the rest is our cost',
    });
    rows.push({
      suite,
      name,
      unit: 'ms',
      ours: t,
      detail,
      peer: withLog,
      peerLabel: 'rg with our flags plus --debug',
      note: 'what ripgrep costs with every flag we pass plus the skip log, i.e. the floor of a request with exact_skips',
    });
    if (gnu) {
      const grep = median(gnuSamples.slice(1));
      rows.push({ suite, name, detail, unit: 'ms', ours: t, peer: grep, peerLabel: 'GNU grep -rn -E' });
    }
  }
  return rows;
}

// What find adds to every listing for speed (packages/search/src/find.ts, speedArgs): one walker thread fewer than the
// cores, leaving one to the process that parses the listing and stats each match, and line buffering so names
// stream in while ripgrep walks.
const LISTING_SPEED = [`--threads=${Math.max(1, availableParallelism() - 1)}`, '--line-buffered'];
const BASE_LISTING = ['--no-config', '--hidden', '--no-require-git', '--color=never', ...LISTING_SPEED];
const IGNORE_FILES = ['.gitignore', '.ignore', '.rgignore'];

/**
 * Whether an ignore rule from outside the tree could apply to a walk rooted at `root` (an ignore file or git excludes
 * file there or above, or a global git excludes file): find then lists the whole tree with --debug. Mirrors
 * packages/search/src/internal/ignore-sources.ts, which is internal to the package.
 */
function outsideRulesMayApply(root: string): boolean {
  for (let at = root; ; at = dirname(at)) {
    if (IGNORE_FILES.some((name) => existsSync(join(at, name))) || existsSync(join(at, '.git', 'info', 'exclude'))) {
      return true;
    }
    if (dirname(at) === at) break;
  }
  const home = homedir();
  let config = '';
  try {
    config = readFileSync(join(home, '.gitconfig'), 'utf8');
  } catch {
    // no global git config
  }
  return /excludesfile/i.test(config) || existsSync(join(home, '.config', 'git', 'ignore'));
}

/**
 * The ripgrep listing find itself runs for a name glob on this tree, and why: the narrowed listing (ripgrep filters
 * names; no --debug, since no ignore rule can apply, plus every ignore file so one met in the tree is seen) when
 * ignored files are included or no ignore rule applies, otherwise the full listing with --debug for the ignored count.
 */
function findListing(target: Target, glob: string): { argv: string[]; what: string } {
  const noIgnore = target.ignored ? ['--no-ignore'] : [];
  const full = {
    argv: [rgPath, ...BASE_LISTING, '--debug', '--iglob=!.git', ...noIgnore, '--files', '--null', '--', '.'],
    what:
      'an ignore rule applies here, so find lists every file with --debug (the only place ripgrep names what the ' +
      'ignore rules hid, for the ignored count) and NUL-separated names, and matches names itself',
  };
  if (!/^\*?[A-Za-z0-9._-]+$/.test(glob)) return full;
  const narrowedArgs = target.ignored
    ? ['--no-ignore', '--iglob=!.git']
    : [
        ...IGNORE_FILES.map((name) => `--iglob=${name}`),
        '--iglob=!**/.git/**',
        '--iglob=**/.git/info',
        '--iglob=**/.git/info/exclude',
      ];
  const narrowed = {
    argv: [rgPath, ...BASE_LISTING, `--glob=${glob}`, ...narrowedArgs, '--files', '--null', '--', '.'],
    what:
      'no ignore rule applies here' +
      (target.ignored ? ' (ignored files are included)' : '') +
      ', so find lets ripgrep filter the names itself, without --debug (the ignored count is 0 by construction); ' +
      'it also lists every ignore file, so one met in the tree sends find back to the full listing',
  };
  if (target.ignored) return narrowed;
  if (outsideRulesMayApply(target.root)) return full;
  const listed = spawnSync(narrowed.argv[0] as string, narrowed.argv.slice(1), { cwd: target.root, encoding: 'utf8' });
  const names = (listed.stdout ?? '').split('\0').map((path) => path.slice(path.lastIndexOf('/') + 1).toLowerCase());
  return names.some((name) => IGNORE_FILES.includes(name)) ? full : narrowed;
}

async function findRows(
  search: LooseHandler,
  target: Target,
  runs: number,
  glob: string,
  goal: string | undefined,
): Promise<BenchRow[]> {
  let found = 0;
  const noIgnore = target.ignored ? ['--no-ignore'] : [];
  const rgArgv = [rgPath, '--no-config', '--hidden', ...noIgnore, '--files', '-g', glob, '.'];
  // The floor: the ripgrep listing find itself runs on this tree, with its flags.
  const listing = findListing(target, glob);
  const floorArgv = listing.argv;
  const rgSamples: number[] = [];
  const floorSamples: number[] = [];
  const request = { action: 'find', pattern: glob, ...(target.ignored ? { include_ignored: true } : {}) };
  const [t] = await pairedMedians(
    async () => {
      found = await ours(search, target.root, request);
    },
    async () => {
      rgSamples.push(await timeCommand(rgArgv, { cwd: target.root, drain: true, okCodes: [0, 1] }));
      floorSamples.push(
        await timeCommand(floorArgv, { cwd: target.root, drain: true, okCodes: [0, 1], stderrToFile: true }),
      );
    },
    runs,
  );
  const rg = median(rgSamples.slice(1));
  const floor = median(floorSamples.slice(1));
  const name = `find '${glob}' in ${target.short}`;
  const detail = `find '${glob}' in ${target.label} (${count(found)} files)`;
  const goalRatio = goal ? Number(/[\d.]+/.exec(goal)?.[0]) : undefined;
  return [
    {
      suite,
      name,
      detail,
      unit: 'ms',
      ours: t,
      peer: rg,
      peerLabel: 'rg --files -g',
      ...(goal && goalRatio ? { goal, met: t <= goalRatio * rg } : {}),
    },
    {
      suite,
      name,
      detail,
      unit: 'ms',
      ours: t,
      peer: floor,
      peerLabel: 'rg --files with our flags (floor)',
      note:
        `the floor: the ripgrep listing find runs here costs ${(floor / rg).toFixed(2)}× rg --files -g: ${listing.what}. ` +
        `Every listing also passes ${LISTING_SPEED.join(' ')} (a walker thread fewer than the ${availableParallelism()} ` +
        'cores, so this process keeps one for parsing and stat calls; names streamed as they are found). ' +
        'The rest is our cost (matching, protected names, a stat per listed match for the newest-first order, ' +
        'overlapped with the listing, and confirming the shown paths through the gate)',
    },
  ];
}

/** grep and find against ripgrep and GNU grep, and bash spawn overhead (issue 5). */
export const searchSuite: BenchSuite = {
  name: 'search',
  async run({ scratch, scale, log }) {
    const rows: BenchRow[] = [];
    const search = await loadExport('@bough/search', 'handleSearch');
    const bash = await loadExport('@bough/bash', 'handleBash');
    const runs = scale >= 0.5 ? 5 : 3;

    const root = join(scratch, 'tree');
    const files = Math.max(1_000, Math.round(50_000 * scale));
    const large = Math.max(1, Math.round(20 * scale));
    log(`generating ${count(files)} files + ${large} large ones`);
    const g0 = performance.now();
    const stats = generateTree(root, { files, avgBytes: 4_000, largeFiles: large, largeBytes: 15e6 });
    log(`  ${count(stats.files)} files, ${size(stats.bytes)} in ${((performance.now() - g0) / 1000).toFixed(1)} s`);
    const tree: Target = {
      label: `${count(stats.files)} files, ${size(stats.bytes)}`,
      short: `${count(stats.files)} files`,
      root,
      ignored: false,
    };
    const lap = (what: string) => log(`${what} (at ${((performance.now() - g0) / 1000).toFixed(0)} s)`);

    if (!search.ok) {
      rows.push(unmeasured(suite, 'grep and find', 'ms', search.reason));
    } else {
      rows.push(...(await grepRows(search.value, tree, runs, true)));
      lap('grep in the tree done');
      rows.push(...(await findRows(search.value, tree, runs, '*.md', '≤ 1.5×')));
      lap('find done');
      for (const target of realTrees(scratch, log)) {
        rows.push(...(await grepRows(search.value, target, runs, false)));
        // A real-tree find takes tens of milliseconds, so more rounds cost little and steady its median.
        rows.push(...(await findRows(search.value, target, Math.max(runs, 15), target.glob ?? '*', '≤ 1.3×')));
        lap(`real tree done: ${target.label}`);
      }
      rows.push(...(await ignoredHeavyRows(search.value, scratch, scale, runs)));
      lap('ignored-heavy tree done');
    }

    if (!bash.ok) {
      rows.push(unmeasured(suite, "bash 'true'", 'ms per call', bash.reason));
    } else {
      const n = Math.max(10, Math.round(40 * scale));
      const request = { command: 'true' };
      const [t, plain] = await pairedMedians(
        () => bash.value(request, { workspaceRoot: root }),
        () => plainSpawn(['true'], root),
        n,
        3,
      );
      rows.push({
        suite,
        name: "bash 'true' via handleBash",
        unit: 'ms per call',
        ours: t,
        peer: plain,
        peerLabel: 'child_process.spawn',
        goal: '≤ 1.2×',
        met: t <= 1.2 * plain,
      });
    }

    if (search.ok) {
      for (const n of [1_000, 10_000, 100_000]) {
        const filesAt = Math.max(200, Math.round(n * scale));
        const curveRoot = join(scratch, `curve-${n}`);
        lap(`curve: ${count(filesAt)} files`);
        const s = generateTree(curveRoot, { files: filesAt, avgBytes: 2_000, seed: n });
        const target: Target = {
          label: `curve, ${count(s.files)} files (${size(s.bytes)})`,
          short: `curve, ${count(s.files)} files`,
          root: curveRoot,
          ignored: false,
        };
        const [literal] = await grepRows(search.value, target, runs, false);
        if (literal) rows.push({ ...literal, chart: { id: 'grep', x: s.files } });
        const [findVsRg] = await findRows(search.value, target, runs, '*.md', undefined);
        if (findVsRg) rows.push({ ...findVsRg, chart: { id: 'find', x: s.files } });
      }
      lap('curve done');
    }
    return rows;
  },
};
