import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codingToolkit, evaluatePermission, PERMISSION_PRESETS, permissionHook } from '@bough/coding';
import { Branch, type Tool } from '@bough/core';
import { createEditorTool } from '@bough/editor';
import { createReaderTool } from '@bough/reader';
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
 * workspace-relative and followed through links, then the rules), beside the call itself through the coding toolkit:
 * issue 34's budget is 5 % of a `read` of a small file.
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
    branch.registerTools(codingToolkit({ tools: ['reader', 'editor'], notify: false, diagnostics: false }));
    const readMicros = await microsPerCall(() => branch.registry.invoke('reader', read), calls);
    await branch.registry.invoke('reader', read);
    const patchMicros = await microsPerCall(() => branch.registry.invoke('editor', dryPatch), Math.ceil(calls / 4));

    const reader = createReaderTool({ workspaceRoot: root });
    const editor = createEditorTool({ workspaceRoot: root });
    const hook = permissionHook(POLICY, undefined, undefined, undefined, undefined, () => root);
    const check = (tool: Tool, args: unknown) => () => hook({ tool, args, callId: 'bench' });
    const readArgs = reader.request.parse(read);
    // The same rules on the paths alone (no root, so no link is looked up): what the matching itself costs.
    const lexical = () =>
      evaluatePermission(POLICY, 'reader', readArgs, undefined, { touches: reader.touches?.(readArgs) });
    const safe = permissionHook(PERMISSION_PRESETS.safe, undefined, undefined, undefined, undefined, () => root);
    const cases: [string, () => unknown, number, string][] = [
      [
        'a reader read under the safe preset',
        () => safe({ tool: reader, args: readArgs, callId: 'b' }),
        readMicros,
        'a small-file read',
      ],
      ['a reader read (links followed)', check(reader, readArgs), readMicros, 'a small-file read'],
      ['a reader read, paths only (no link lookup)', lexical, readMicros, 'a small-file read'],
      [
        'an editor patch of 2 files',
        check(editor, editor.request.parse(dryPatch)),
        patchMicros,
        'that patch (dry run)',
      ],
    ];
    const rows: BenchRow[] = [];
    for (const [name, fn, baseMicros, base] of cases) {
      const micros = await microsPerCall(fn, calls * 5);
      const share = (micros / baseMicros) * 100;
      rows.push({
        suite,
        name: `policy check of ${name}, share of ${base} through the toolkit`,
        unit: '% of the call',
        ours: share,
        lowerIsBetter: true,
        goal: '≤ 5 %',
        met: share <= 5,
        note: `check ${micros.toFixed(1)} µs per call; the call itself ${baseMicros.toFixed(1)} µs`,
      });
    }
    return rows;
  },
};
