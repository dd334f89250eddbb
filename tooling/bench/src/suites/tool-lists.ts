import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { countTokens } from '@bough/context';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type BenchRow, type BenchSuite, unmeasured } from '../harness.js';
import { benchRequire, repoRoot } from './support.js';

const suite = 'tool-lists';
const PROFILES = ['full', 'minimal', 'anthropic', 'openai', 'gemini'] as const;
/** The goals for the two profiles it names (o200k tokens of the whole tools/list answer). */
const GOALS: Partial<Record<(typeof PROFILES)[number], number>> = { full: 2000, minimal: 800 };

/**
 * o200k tokens of what a model is shown of a server's tools: each tool's name, description and input schema as
 * compact JSON (clients pass those to the model; the annotations, and the output schemas `--output-schemas` adds, of
 * the whole `tools/list` answer, also counted, are for the client).
 */
async function listTokens(args: string[]): Promise<{ tokens: number; whole: number; tools: number }> {
  const client = new Client({ name: 'bough-bench', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
  try {
    const { tools } = await client.listTools();
    const shown = tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
    return {
      tokens: countTokens(JSON.stringify(shown)),
      whole: countTokens(JSON.stringify(tools)),
      tools: tools.length,
    };
  } finally {
    await client.close();
  }
}

function serverFilesystem(): string {
  const pkgPath = benchRequire.resolve('@modelcontextprotocol/server-filesystem/package.json');
  const bin = (JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin: string | Record<string, string> }).bin;
  return join(dirname(pkgPath), typeof bin === 'string' ? bin : (Object.values(bin)[0] ?? 'dist/index.js'));
}

/**
 * What each `bough mcp --profile` costs a model before the first call: o200k tokens of its tool list, beside the
 * reference filesystem server's, measured in the same run.
 */
export const toolListsSuite: BenchSuite = {
  name: suite,
  async run({ scratch }) {
    const cli = join(repoRoot, 'packages/cli/dist/bin.js');
    const name = (profile: string) => `o200k tokens of the tool list a model sees, bough mcp --profile ${profile}`;
    if (!existsSync(cli)) return PROFILES.map((p) => unmeasured(suite, name(p), 'tokens', 'the CLI is not built'));
    const peer = await listTokens([serverFilesystem(), scratch]);
    const rows: BenchRow[] = [];
    for (const profile of PROFILES) {
      const args = [cli, 'mcp', scratch, '--profile', profile, '--sandbox', 'off'];
      const ours = await listTokens(args);
      // Output schemas are advertised only on request; what they would add to the whole answer, measured too.
      const withSchemas = profile === 'full' ? await listTokens([...args, '--output-schemas']) : undefined;
      const goal = GOALS[profile];
      rows.push({
        suite,
        name: name(profile),
        unit: 'tokens',
        ours: ours.tokens,
        peer: peer.tokens,
        peerLabel: '@modelcontextprotocol/server-filesystem',
        lowerIsBetter: true,
        ...(goal !== undefined ? { goal: `≤ ${goal}`, met: ours.tokens <= goal } : {}),
        note:
          `name, description and input schema of each tool, compact JSON; ${ours.tools} tools vs the reference's ` +
          `${peer.tools}; the whole tools/list answer: ${ours.whole} vs ${peer.whole}` +
          (withSchemas ? ` (${withSchemas.whole} with --output-schemas)` : ''),
      });
    }
    return rows;
  },
};
