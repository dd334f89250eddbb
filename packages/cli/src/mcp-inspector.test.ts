import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { CLI_BIN, makeWorkspace, requireCliBuild, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// A client nobody here wrote: the MCP inspector's CLI mode (`mcp-inspector --cli <server command> --method …`),
// which starts `bough mcp DIR` itself over stdio, makes one request, prints the JSON answer and exits. Each run
// starts two node processes and the server, so the tests get a generous timeout.
const SLOW = { timeout: 120_000 };
const run = promisify(execFile);
const INSPECTOR = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')),
  'cli/build/cli.js',
);

type Answer = {
  tools?: { name: string; inputSchema: unknown; outputSchema?: unknown }[];
  content?: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

describe('bough mcp DIR driven by @modelcontextprotocol/inspector --cli', () => {
  let ws: TempWorkspace;
  let outside: TempWorkspace;
  beforeEach(() => {
    requireCliBuild();
    ws = makeWorkspace({ 'src/app.py': 'def main():\n    return 1\n' });
    outside = makeWorkspace({ 'secret.txt': 'not for the model\n' });
  });
  afterEach(() => {
    ws.cleanup();
    outside.cleanup();
  });

  async function inspect(...method: string[]): Promise<Answer> {
    const { stdout } = await run(
      process.execPath,
      [INSPECTOR, '--cli', process.execPath, CLI_BIN, 'mcp', ws.root, ...method],
      { cwd: outside.root, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
    );
    return JSON.parse(stdout) as Answer;
  }

  it(
    'lists the tools, each with an object input schema (output schemas only with --output-schemas)',
    SLOW,
    async () => {
      const listed = await inspect('--method', 'tools/list');
      const names = (listed.tools ?? []).map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['reader', 'editor', 'search', 'bash']));
      expect(names).not.toContain('context');
      for (const tool of listed.tools ?? []) {
        expect(tool.inputSchema).toMatchObject({ type: 'object' });
        expect(tool.outputSchema).toBeUndefined();
      }
    },
  );

  /** A reader `read` of `path`, called through the inspector CLI. */
  const readThroughInspector = (path: string) =>
    inspect(
      '--method',
      'tools/call',
      '--tool-name',
      'reader',
      '--tool-arg',
      'action=read',
      '--tool-arg',
      `path=${path}`,
    );

  it('reads a file as numbered rows, the whole response in structuredContent', SLOW, async () => {
    const answer = await readThroughInspector('src/app.py');
    expect(answer.isError).toBeUndefined();
    expect(answer.content).toEqual([{ type: 'text', text: '1\tdef main():\n2\t    return 1' }]);
    expect(answer.structuredContent).toMatchObject({ success: true, relative: 'src/app.py', total_lines: 2 });
  });

  it('refuses paths outside the served directory (absolute or climbing out), its cwd included', SLOW, async () => {
    for (const path of [join(outside.root, 'secret.txt'), `../${basename(outside.root)}/secret.txt`]) {
      const answer = await readThroughInspector(path);
      expect(answer.isError).toBe(true);
      expect(answer.structuredContent).toMatchObject({ success: false });
      expect(JSON.stringify(answer)).not.toContain('not for the model');
    }
  });
});
