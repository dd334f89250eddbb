import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { handleEditor } from '@bough/editor';
import { type BenchRow, type BenchSuite, median } from '../harness.js';

/** The shape of one corpus case (tooling/test-utils/src/near-miss-corpus.ts, shared with the editor's tests). */
interface NearMissCase {
  kind: string;
  file: string;
  old: string;
  new: string;
  slip: (s: string) => string;
  expect: 'recover' | 'refuse';
}

/**
 * Loads the near-miss corpus the editor's tests use. It is TypeScript without imports, so it is transpiled as is into
 * the scratch directory and imported from there: the bench measures exactly the cases the tests check.
 */
async function loadCorpus(scratch: string): Promise<readonly NearMissCase[]> {
  const source = fileURLToPath(new URL('../../../test-utils/src/near-miss-corpus.ts', import.meta.url));
  const ts = (await import('typescript')).default;
  const js = ts.transpileModule(readFileSync(source, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const file = join(scratch, 'near-miss-corpus.mjs');
  writeFileSync(file, js);
  const loaded = (await import(pathToFileURL(file).href)) as { NEAR_MISS_CASES: readonly NearMissCase[] };
  return loaded.NEAR_MISS_CASES;
}

/** Runs every case as one editor `edit` and sorts the outcomes; a success whose text is not the true result is wrong. */
async function corpusTally(scratch: string, cases: readonly NearMissCase[]) {
  const root = join(scratch, 'corpus');
  mkdirSync(root, { recursive: true });
  const tally = { recovered: 0, refused: 0, wrong: 0, refusedExpected: 0, recoverExpected: 0 };
  for (const [n, c] of cases.entries()) {
    const name = `case-${n}.txt`;
    writeFileSync(join(root, name), c.file);
    const out = await handleEditor(
      { action: 'edit', file_path: name, old_string: c.slip(c.old), new_string: c.slip(c.new) },
      { workspaceRoot: root },
    );
    const text = readFileSync(join(root, name), 'utf8');
    if (c.expect === 'recover') tally.recoverExpected++;
    else tally.refusedExpected++;
    if (!out.success) tally.refused++;
    else if (text === c.file.replace(c.old, c.new)) tally.recovered++;
    else tally.wrong++;
  }
  return tally;
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 256 * 2 ** 20,
  });

/** 100 files of 100 lines, 10 separate one-line changes in each: a 1,000-hunk unified diff made by real git. */
function patchRepo(scratch: string) {
  const root = join(scratch, 'repo');
  mkdirSync(join(root, 'src'), { recursive: true });
  const before = new Map<string, string>();
  const after = new Map<string, string>();
  for (let f = 0; f < 100; f++) {
    const lines = Array.from({ length: 100 }, (_, i) => `value_${f}_${i} = compute(${i}, "file ${f}")`);
    const changed = lines.map((line, i) => (i % 10 === 5 ? `${line}  # changed` : line));
    const path = `src/module_${String(f).padStart(3, '0')}.py`;
    before.set(path, `${lines.join('\n')}\n`);
    after.set(path, `${changed.join('\n')}\n`);
  }
  const writeAll = (contents: Map<string, string>) => {
    for (const [path, text] of contents) writeFileSync(join(root, path), text);
  };
  writeAll(before);
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'base');
  writeAll(after);
  const patch = git(root, 'diff');
  writeAll(before);
  writeFileSync(join(scratch, 'change.patch'), patch);
  return { root, patch, patchFile: join(scratch, 'change.patch'), before, after, writeAll };
}

/** Issue 18's measured figures: the near-miss corpus outcome and an all-or-nothing 1,000-hunk patch against git apply. */
export const editsSuite: BenchSuite = {
  name: 'edits',
  async run({ scratch, scale }) {
    const suite = 'edits';
    const rows: BenchRow[] = [];
    const cases = await loadCorpus(scratch);
    const tally = await corpusTally(scratch, cases);
    const count = (name: string, value: number, note: string, extra: Partial<BenchRow> = {}): BenchRow => ({
      suite,
      name: `near-miss corpus: ${name}`,
      detail: `${cases.length} kinds of near miss`,
      unit: 'cases',
      ours: value,
      note,
      ...extra,
    });
    rows.push(
      count('recovered correctly', tally.recovered, `${tally.recoverExpected} of the kinds are recoverable`),
      count('refused', tally.refused, `${tally.refusedExpected} of the kinds must be refused (ambiguous or not there)`),
      count('applied wrongly', tally.wrong, 'a success whose text is not the true result', {
        goal: '= 0',
        met: tally.wrong === 0,
      }),
    );

    const repo = patchRepo(scratch);
    const hunks = (repo.patch.match(/^@@ /gm) ?? []).length;
    const runs = Math.max(3, Math.round(7 * scale));
    const ours: number[] = [];
    const gitApply: number[] = [];
    const check = (label: string) => {
      for (const [path, text] of repo.after) {
        if (readFileSync(join(repo.root, path), 'utf8') !== text) throw new Error(`${label} left ${path} wrong`);
      }
    };
    for (let i = 0; i < runs + 1; i++) {
      repo.writeAll(repo.before);
      let t0 = performance.now();
      const out = await handleEditor({ action: 'patch', patch: repo.patch }, { workspaceRoot: repo.root });
      const tOurs = performance.now() - t0;
      if (!out.success) throw new Error(`patch failed: ${out.error}`);
      check('the editor patch');
      repo.writeAll(repo.before);
      t0 = performance.now();
      git(repo.root, 'apply', repo.patchFile);
      const tGit = performance.now() - t0;
      check('git apply');
      if (i > 0) {
        ours.push(tOurs);
        gitApply.push(tGit);
      }
    }
    const [oursMs, gitMs] = [median(ours), median(gitApply)];
    rows.push({
      suite,
      name: `patch of ${hunks} hunks over ${repo.before.size} files`,
      detail: 'a unified diff from git diff',
      unit: 'ms',
      ours: oursMs,
      peer: gitMs,
      peerLabel: 'git apply of the same diff (process included)',
      note: 'ours: every hunk checked first, staged temp files, rename in order with rollback; the diff is cut in the response',
    });
    return rows;
  },
};
