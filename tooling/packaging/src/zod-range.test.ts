import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { must } from './must.js';
import { publicPackages, readmeExamples } from './packages.js';
import { typecheck } from './typecheck.js';

// A user who already has zod, at the oldest and at the newest version our peer range admits, installs the packages
// that expose zod types together with the newest AI SDK by name: the tree must hold one zod (theirs), and the README
// examples of @bough/mcp, @bough/ai-sdk and @bough/coding must pass `tsc --strict` (no skipLibCheck) and run.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const context = inject('packaging');
const only = process.env.BOUGH_PACKAGING_ONLY?.split(',').filter(Boolean);
const MINUTE = 60_000;

/** The zod peer range, which every public package that has one must declare alike. */
function zodRange(): string {
  const ranges = new Set<string>();
  for (const pkg of publicPackages(repoRoot)) {
    const manifest = JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8'));
    const range = manifest.peerDependencies?.zod;
    if (range) ranges.add(range);
  }
  expect([...ranges], 'one zod peer range across the packages').toHaveLength(1);
  return [...ranges][0] as string;
}

/** Every installed copy of zod under `node_modules`, as `path@version`. */
function zodCopies(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    if (entry.name === 'zod' && dir.endsWith('node_modules')) {
      found.push(`${path}@${JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')).version}`);
    }
    if (entry.name === 'node_modules' || entry.name.startsWith('@') || dir.endsWith('node_modules')) {
      zodCopies(path, found);
    }
  }
  return found;
}

/** The examples tried, by file name: README `ts` blocks that are whole programs, and the package they come from. */
const EXAMPLES: { file: string; pkg: string; heading: string; runs: boolean }[] = [
  { file: 'mcp-usage.ts', pkg: 'mcp', heading: '## Usage', runs: true },
  { file: 'ai-sdk-usage.ts', pkg: 'ai-sdk', heading: '## Usage', runs: true },
  // Needs a model server to run; type-checked only.
  { file: 'ai-sdk-branch.ts', pkg: 'ai-sdk', heading: '## Drive a Branch', runs: false },
  // A function that needs a model to call; type-checked only.
  { file: 'ai-sdk-typed.ts', pkg: 'ai-sdk', heading: '### Typed results', runs: false },
  { file: 'coding-usage.ts', pkg: 'coding', heading: '## Usage', runs: true },
];

describe.skipIf(only && !only.includes('zod'))('a project with its own zod and the newest AI SDK', () => {
  const range = zodRange();
  it.each([
    ['oldest', range.replace(/^[\^~]/, '')],
    ['newest', range],
  ])(
    'with the %s zod the range admits (%s): one zod, README examples type-check and run',
    async (_bound, wanted) => {
      const project = join(context.tmp, 'zod', wanted.replace(/[^\w.]/g, '_'));
      await must(context, 'mkdir', 'mkdir', ['-p', project], context.tmp);
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'own-zod', private: true, type: 'module' }));
      const flags = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
      // The user's zod first, then our packages and the newest AI SDK by name.
      await must(context, `npm install zod@${wanted}`, 'npm', ['install', `zod@${wanted}`, ...flags], project);
      // The MCP client is @bough/mcp's optional peer; its README example uses it, so the user installs it too.
      const names = [
        '@bough/mcp',
        '@modelcontextprotocol/client@^2.4.0',
        '@bough/ai-sdk',
        '@bough/coding',
        'ai@7',
        '@ai-sdk/openai-compatible@3',
      ];
      await must(context, `npm install ${names.join(' ')}`, 'npm', ['install', ...names, ...flags], project);
      const copies = zodCopies(join(project, 'node_modules'));
      const version = copies[0]?.split('@').at(-1);
      expect(copies, 'one copy of zod in the tree').toHaveLength(1);
      if (wanted === range.replace(/^[\^~]/, '')) expect(version).toBe(wanted);
      for (const example of EXAMPLES) {
        const readme = readFileSync(join(repoRoot, 'packages', example.pkg, 'README.md'), 'utf8');
        const code = readmeExamples(readme, example.heading)[0];
        if (!code) throw new Error(`packages/${example.pkg}/README.md has no \`\`\`ts block under ${example.heading}`);
        writeFileSync(join(project, example.file), code);
      }
      // All examples in one program per resolution (each program reads every declaration of ai 7 and the rest).
      const failures: string[] = [];
      for (const resolution of ['bundler', 'node16'] as const) {
        const errors = typecheck(
          project,
          EXAMPLES.map((example) => example.file),
          resolution,
        );
        if (errors.length > 0) failures.push(`zod ${version}, ${resolution}:\n${errors.join('')}`);
      }
      expect(failures.join('\n'), 'tsc --strict over the README examples').toBe('');
      for (const example of EXAMPLES.filter((e) => e.runs)) {
        const script = join('out', example.file.replace(/\.ts$/, '.js'));
        await must(context, `node ${script} (zod ${version})`, process.execPath, [script], project);
      }
    },
    20 * MINUTE,
  );
});
