// `bough --version` and `--help` answer from a module graph that loads no tool package: the built binary runs under a
// module hook that writes down every module it loads, and the list is checked (which modules, never how long).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI_BIN, requireCliBuild } from '@bough/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let dir: string;
beforeAll(() => {
  requireCliBuild();
  dir = mkdtempSync(join(tmpdir(), 'bough-startup-'));
  writeFileSync(
    join(dir, 'hooks.mjs'),
    [
      "import { appendFileSync } from 'node:fs';",
      'export async function load(url, context, next) {',
      "  if (process.env.BOUGH_TRACE_FILE) appendFileSync(process.env.BOUGH_TRACE_FILE, url + '\\n');",
      '  return next(url, context);',
      '}',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'register.mjs'),
    "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n",
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the built CLI with `args` and returns its stdout, exit code and every module file it loaded. */
function traced(args: readonly string[], name: string): { stdout: string; status: number | null; loaded: string[] } {
  const trace = join(dir, `${name}.txt`);
  writeFileSync(trace, '');
  const run = spawnSync(
    process.execPath,
    ['--import', pathToFileURL(join(dir, 'register.mjs')).href, CLI_BIN, ...args],
    { encoding: 'utf8', env: { ...process.env, BOUGH_TRACE_FILE: trace }, timeout: 60_000 },
  );
  const loaded = readFileSync(trace, 'utf8')
    .split('\n')
    .filter((url) => url.startsWith('file:'));
  return { stdout: run.stdout, status: run.status, loaded };
}

const cliDist = pathToFileURL(join(CLI_BIN, '..')).href;
/** Modules outside the CLI's own dist: only core's error classes may be among them. */
const foreign = (loaded: readonly string[]) => loaded.filter((url) => !url.startsWith(`${cliDist}/`));

describe('answering --version and --help loads no tool package', () => {
  for (const args of [['--version'], ['--help'], ['-h'], ['help', 'mcp'], ['call', '--help'], ['mcp', '--version']]) {
    it(`bough ${args.join(' ')}`, () => {
      const { stdout, status, loaded } = traced(args, args.join('_'));
      expect(status).toBe(0);
      expect(stdout.length).toBeGreaterThan(0);
      expect(loaded).toContain(pathToFileURL(CLI_BIN).href);
      expect(foreign(loaded).map((url) => url.replace(/^.*\/packages\//, ''))).toEqual(['core/dist/bough-error.js']);
    });
  }

  it('the trace sees tool packages where a command really needs them', () => {
    const { status, loaded } = traced(['tools', '--json'], 'tools');
    expect(status).toBe(0);
    expect(loaded.some((url) => url.includes('/packages/editor/dist/'))).toBe(true);
  });
});
