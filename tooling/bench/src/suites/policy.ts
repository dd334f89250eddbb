import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codingToolkit, linkRuleOf, PERMISSION_PRESETS, permissionHook } from '@bough/coding';
import { Branch, type Tool } from '@bough/core';
import { createEditorTool } from '@bough/editor';
import { createReaderTool } from '@bough/reader';
import { createSearchTool } from '@bough/search';
import { type BenchRow, type BenchSuite, median } from '../harness.js';

const suite = 'policy';

// A custom policy of the kind issue 34 measured: everything allowed except a few path rules for every tool.
const POLICY = {
  allow: { '*': ['*'] },
  deny: { '*': ['secrets/**', '*.pem', '.env*'], editor: ['dist/*'] },
  ask: { editor: ['package.json'] },
};

/** Microseconds per call of `fn`, the median of 5 rounds of `calls` calls each. */
async function microsPerCall(fn: () => unknown, calls: number): Promise<number> {
  const rounds: number[] = [];
  for (let round = 0; round < 6; round++) {
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) await fn();
    if (round > 0) rounds.push(((performance.now() - t0) * 1000) / calls);
  }
  return median(rounds);
}

/**
 * The cost of checking one call against a path policy (the tool's `touches` of the parsed request, each path made
 * workspace-relative, then the rules; where a link leads is judged by the tool's own gate, which asks the policy only
 * when its walk followed one), beside the call itself through the coding toolkit: issue 34's budget is 5 % of a
 * `read` of a small file. The check that follows links itself (for tools without such a gate) is shown without a goal.
 */
export const policySuite: BenchSuite = {
  name: 'policy',
  async run({ scratch, scale }) {
    const root = join(scratch, 'ws');
    mkdirSync(join(root, 'src'), { recursive: true });
    const lines = Array.from({ length: 40 }, (_, i) => `export const a${i} = ${i};`);
    writeFileSync(join(root, 'src', 'small.ts'), `${lines.join('\n')}\n`);
    const calls = Math.max(200, Math.round(2_000 * scale));
    const read = { action: 'read', path: 'src/small.ts' };
    const patch = [
      '*** Begin Patch',
      '*** Update File: src/small.ts',
      '@@',
      '-export const a7 = 7;',
      '+export const a7 = 70;',
      '*** Add File: src/new.ts',
      '+x',
      '*** End Patch',
    ].join('\n');
    const dryPatch = { action: 'patch', patch, dry_run: true };
    // The calls as a user of the coding toolkit makes them (where policies apply), without a policy.
    const branch = new Branch({ name: 'bench', workspaceRoot: root });
    branch.registerTools(codingToolkit({ tools: ['reader', 'editor', 'search'], notify: false, diagnostics: false }));
    const readMicros = await microsPerCall(() => branch.registry.invoke('reader', read), calls);
    const grep = { action: 'grep', pattern: 'a7', path: 'src' };
    const grepMicros = await microsPerCall(() => branch.registry.invoke('search', grep), Math.ceil(calls / 10));
    await branch.registry.invoke('reader', read);
    const patchMicros = await microsPerCall(() => branch.registry.invoke('editor', dryPatch), Math.ceil(calls / 4));

    const reader = createReaderTool({ workspaceRoot: root });
    const search = createSearchTool({ workspaceRoot: root });
    const grepArgs = search.request.parse(grep);
    const editor = createEditorTool({ workspaceRoot: root });
    // The hook as the toolkit makes it for the reader and the editor: their own workspace gates judge where a link
    // leads (the walk that opens the path asks the policy's link rule), so the hook matches the paths as asked.
    const hook = permissionHook(POLICY, undefined, undefined, undefined, undefined, () => root, true);
    const check = (tool: Tool, args: unknown) => () => hook({ tool, args, callId: 'bench' });
    const readArgs = reader.request.parse(read);
    // A read whose path went through a link: the hook, then the gate's question about the real path it reached.
    const linkRule = linkRuleOf(POLICY, 'reader');
    const viaLink = () => {
      hook({ tool: reader, args: readArgs, callId: 'bench' });
      return linkRule('src/small.ts', 'read');
    };
    // A check that follows links itself (a tool without such a gate: checkpoints, a source of the caller's own).
    const following = permissionHook(POLICY, undefined, undefined, undefined, undefined, () => root);
    const safe = permissionHook(PERMISSION_PRESETS.safe, undefined, undefined, undefined, undefined, () => root, true);
    const cases: [string, () => unknown, number, string, boolean][] = [
      [
        'a reader read under the safe preset',
        () => safe({ tool: reader, args: readArgs, callId: 'b' }),
        readMicros,
        'a small-file read',
        true,
      ],
      ['a reader read (links judged by its gate)', check(reader, readArgs), readMicros, 'a small-file read', true],
      ['a reader read through a link (the gate asks the rule)', viaLink, readMicros, 'a small-file read', true],
      [
        'a reader read, links followed by the check itself',
        () => following({ tool: reader, args: readArgs, callId: 'c' }),
        readMicros,
        'a small-file read',
        false,
      ],
      // search's own gate judges where a link on its path leads, as the reader's does.
      ['a search grep (links judged by its gate)', check(search, grepArgs), grepMicros, 'that grep', true],
      [
        'an editor patch of 2 files',
        check(editor, editor.request.parse(dryPatch)),
        patchMicros,
        'that patch (dry run)',
        true,
      ],
    ];
    const rows: BenchRow[] = [];
    for (const [name, fn, baseMicros, base, goal] of cases) {
      const micros = await microsPerCall(fn, calls * 5);
      const share = (micros / baseMicros) * 100;
      rows.push({
        suite,
        name: `policy check of ${name}, share of ${base} through the toolkit`,
        unit: '% of the call',
        ours: share,
        lowerIsBetter: true,
        ...(goal ? { goal: '≤ 5 %', met: share <= 5 } : {}),
        note: `check ${micros.toFixed(1)} µs per call; the call itself ${baseMicros.toFixed(1)} µs`,
      });
    }
    return rows;
  },
};
