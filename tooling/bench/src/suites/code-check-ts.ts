import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type BenchRow, pairedMedians, timeMedian, unmeasured } from '../harness.js';
import { count, loadExport, repoRoot } from './support.js';

const suite = 'code';

/** A TypeScript project of `files` modules in a chain, each with one type error, under a strict tsconfig. */
function writeProject(root: string, files: number): void {
  mkdirSync(join(root, 'src'), { recursive: true });
  const compilerOptions = { strict: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler' };
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['src'] }));
  for (let i = 0; i < files; i++) {
    const lines = [
      ...(i > 0 ? [`import { Store${i - 1}, step${i - 1} } from './mod${i - 1}';`] : []),
      `export interface Item${i} { readonly id: number; readonly tags: string[] }`,
      `export function step${i}(input: number): number {`,
      `  return ${i > 0 ? `step${i - 1}(input)` : 'input'} + [1, 2, 3].map((n) => n * 2).length;`,
      '}',
      `export class Store${i} {`,
      `  readonly #items = new Map<number, Item${i}>();`,
      `  add(item: Item${i}): void { this.#items.set(item.id, item); }`,
      `  find(tag: string): Item${i}[] { return [...this.#items.values()].filter((x) => x.tags.includes(tag)); }`,
      '}',
      `export const wrong${i}: string = step${i}(${i});`,
      ...(i > 0 ? [`export const previous${i} = new Store${i - 1}().find('a').length;`] : []),
    ];
    writeFileSync(join(root, `src/mod${i}.ts`), `${lines.join('\n')}\n`);
  }
}

/**
 * code_check with TypeScript on a generated project: a first check with a new cache against `tsc --noEmit` of the
 * repository's own `typescript` in a fresh process (what a user would run; it also starts a process and loads the
 * compiler, which ours has done once before), and a second check with the same cache (the standard library and
 * unchanged files reused), alone.
 */
export async function typescriptCheckRows(root: string, files: number, runs: number): Promise<BenchRow[]> {
  const base = `code_check (typescript) of ${count(files)} TS files`;
  const handler = await loadExport('@bough/check', 'handleCodeCheck');
  const Cache = await loadExport<new () => object>('@bough/check', 'CheckCache');
  writeProject(root, files);
  const tscPackage = createRequire(join(repoRoot, 'package.json')).resolve('typescript/package.json');
  const tscVersion = (JSON.parse(readFileSync(tscPackage, 'utf8')) as { version: string }).version;
  const tsc = join(dirname(tscPackage), 'bin', 'tsc');
  const peerLabel = `tsc --noEmit -p (typescript ${tscVersion}, a fresh process)`;
  let peerErrors = 0;
  const peerRun = () => {
    const out = spawnSync(process.execPath, [tsc, '--noEmit', '-p', root], { encoding: 'utf8' });
    peerErrors = (out.stdout.match(/error TS/g) ?? []).length;
  };
  if (!handler.ok || !Cache.ok) {
    const reason = handler.ok ? (Cache as { reason: string }).reason : handler.reason;
    const peer = await timeMedian(peerRun, runs, 1);
    return [unmeasured(suite, `${base}, new cache`, 'ms', reason, { peer, peerLabel, goal: '≤ 1×' })];
  }
  let total = 0;
  const call = async (cache: object) => {
    const request = { paths: ['src'], tool: 'typescript', max_diagnostics: 1 };
    const response = await handler.value(request, { workspaceRoot: root, cache });
    if (response.success === false) throw new Error(`code_check failed: ${String(response.error)}`);
    total = Number(response.total ?? 0);
  };
  const [cold, peer] = await pairedMedians(() => call(new Cache.value()), peerRun, Math.min(runs, 5), 1);
  const coldTotal = total;
  const shared = new Cache.value();
  const warm = await timeMedian(() => call(shared), Math.max(runs, 5), 1);
  return [
    {
      suite,
      name: `${base}, new cache`,
      detail: `${base} (a generated project), a new CheckCache each call; the compiler module already loaded`,
      unit: 'ms',
      ours: cold,
      peer,
      peerLabel,
      goal: '≤ 1×',
      met: cold <= peer,
      note: `${count(coldTotal)} diagnostics; tsc: ${count(peerErrors)}`,
    },
    {
      suite,
      name: `${base}, warm`,
      detail: `${base} (a generated project), the same CheckCache again: standard library and unchanged files reused`,
      unit: 'ms',
      ours: warm,
      note: `${count(total)} diagnostics`,
    },
  ];
}
