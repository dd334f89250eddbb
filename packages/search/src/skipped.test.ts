// Spec checks for what a search reports about the files it left out, and for limits that must really be in force.
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ok, refused, searchIn } from '../test/helpers.js';
import { RgSkipTally } from './internal/rg-skips.js';
import { confirmMatches } from './internal/verify-results.js';
import { createSearchTool } from './tool.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({
    '.gitignore': 'node_modules\n*.log\n',
    'src/a.ts': 'needle a\n',
    'node_modules/pkg/index.js': 'needle in a dependency\n',
    'debug.log': 'needle in a log\n',
    '.env': 'needle=secret-value\n',
    'keys/id_rsa': 'needle private key\n',
    'z.ts': 'needle z\n',
  });
});
afterEach(() => ws.cleanup());

describe('grep says what it left out and why', () => {
  it('counts ignored paths, protected files, binary files and oversized files', async () => {
    ws.write('early.bin', Buffer.from('xx\0needle\n'));
    ws.write('big.txt', `${'x'.repeat(5_000)}\nneedle in a big file\n`);
    const request = { action: 'grep', pattern: 'needle', exact_skips: true } as const;
    const out = ok(await searchIn(ws, request, { limits: { maxFileBytes: 4_096 } }));
    expect(out.content.split('\n')).toEqual(['src/a.ts:1:needle a', 'z.ts:1:needle z']);
    expect(out.skipped).toMatchObject({ ignored: 2, protected_files: 2, binary: 1, too_large: 1, lower_bound: false });
    expect(out.note).toContain('2 path(s) hidden by .gitignore');
    expect(out.note).toContain('1 file(s) over 4096 bytes');
    expect(out.note).not.toContain('secret-value');
  });

  it('reads a long debug log completely through its temporary file and leaves no file behind', async () => {
    // Every binary file is one line of ripgrep's log; far more than one replay chunk of lines in all.
    for (let i = 0; i < 1_500; i++) ws.write(`bin/b${i}.dat`, Buffer.from(`x\0needle ${i}\n`));
    // The log file is made in /dev/shm (a tmpfs with room) or the temp directory; neither may keep anything.
    const leftovers = () =>
      [tmpdir(), '/dev/shm']
        .filter((dir) => existsSync(dir))
        .flatMap((dir) => readdirSync(dir).filter((name) => name.startsWith('bough-rg-')));
    const before = leftovers();
    const out = ok(await searchIn(ws, { action: 'grep', pattern: 'needle', exact_skips: true }));
    expect(out.skipped).toMatchObject({ binary: 1_500, ignored: 2, protected_files: 2 });
    expect(out.content.split('\n')).toEqual(['src/a.ts:1:needle a', 'z.ts:1:needle z']);
    expect(leftovers()).toEqual(before);
  });

  it('include_ignored searches ignored files, so none are counted as hidden', async () => {
    const request = { action: 'grep', pattern: 'needle', include_ignored: true, exact_skips: true } as const;
    const out = ok(await searchIn(ws, request));
    expect(out.content).toContain('node_modules/pkg/index.js:1:needle in a dependency');
    expect(out.content).toContain('debug.log:1:needle in a log');
    expect(out.skipped).toMatchObject({ ignored: 0, ignored_files: 'included', protected_files: 2 });
    expect(out.content).not.toContain('secret-value');
  });

  it('reports zero for every reason when nothing was left out', async () => {
    const out = ok(await searchIn(ws, { action: 'grep', pattern: 'needle', path: 'src', exact_skips: true }));
    expect(out.skipped).toMatchObject({ ignored: 0, binary: 0, too_large: 0, protected_files: 0, protected: 0 });
    expect(out.skipped.lower_bound).toBe(false);
  });

  it('a NUL after a match (ripgrep 15 warning) costs no other result and is counted as binary', async () => {
    ws.write(
      'late.bin',
      Buffer.concat([Buffer.from('needle early\n'), Buffer.alloc(200_000, 0x61), Buffer.from('\n\0\nneedle\n')]),
    );
    const out = ok(await searchIn(ws, { action: 'grep', pattern: 'needle' }));
    expect(out.content.split('\n')).toEqual(['late.bin:1:needle early', 'src/a.ts:1:needle a', 'z.ts:1:needle z']);
    expect(out.skipped.binary).toBe(1);
    expect(out.note ?? '').not.toContain('dropped');
  });
});

describe('grep skip counts are lower bounds unless exact_skips asks for them', () => {
  beforeEach(() => {
    for (let i = 0; i < 20; i++) ws.write(`bin/b${i}.pyc`, Buffer.from(`x\0needle ${i}\n`));
    ws.write('big.txt', `${'x'.repeat(5_000)}\nneedle in a big file\n`);
  });
  const limits = { limits: { maxFileBytes: 4_096 } };

  it('by default: the same lines and totals, the skip counts flagged as lower bounds', async () => {
    const exact = ok(await searchIn(ws, { action: 'grep', pattern: 'needle', exact_skips: true }, limits));
    const quick = ok(await searchIn(ws, { action: 'grep', pattern: 'needle' }, limits));
    expect(exact.skipped).toMatchObject({ binary: 20, ignored: 2, protected_files: 2, too_large: 1 });
    expect(exact.skipped.lower_bound).toBe(false);
    expect(quick.skipped.lower_bound).toBe(true);
    expect(quick.content).toBe(exact.content);
    expect(quick).toMatchObject({ count: exact.count, count_is_lower_bound: false, timed_out: false });
    for (const key of ['binary', 'ignored', 'protected_files', 'too_large'] as const) {
      expect(quick.skipped[key]).toBeLessThanOrEqual(exact.skipped[key]);
    }
    expect(quick.content).not.toContain('secret-value');
  });

  it('by default a binary file ripgrep names on its output still counts, as "at least"', async () => {
    ws.write(
      'late.bin',
      Buffer.concat([Buffer.from('needle early\n'), Buffer.alloc(200_000, 0x61), Buffer.from('\0')]),
    );
    const out = ok(await searchIn(ws, { action: 'grep', pattern: 'needle early' }));
    expect(out.skipped).toMatchObject({ binary: 1, lower_bound: true });
    expect(out.note).toContain('at least 1 binary file(s)');
  });
});

describe('find says what it left out', () => {
  it('counts ignored paths and withheld protected files', async () => {
    const out = ok(await searchIn(ws, { action: 'find', pattern: '*' }));
    expect(out.content.split('\n').sort()).toEqual(['.gitignore', 'src/a.ts', 'z.ts']);
    expect(out.skipped).toMatchObject({ ignored: 2, protected: 2 });
  });
});

describe('set-up failures are typed', () => {
  it('a ripgrep binary that is missing is search_unavailable', async () => {
    const rgPath = join(ws.base, 'no-such-rg');
    refused(await searchIn(ws, { action: 'grep', pattern: 'needle' }, { rgPath }), 'search_unavailable');
    refused(await searchIn(ws, { action: 'find', pattern: '*' }, { rgPath }), 'search_unavailable');
  });
});

describe('the max_results ceiling is the configured limit', () => {
  it('a raised limit accepts more than the default ceiling', async () => {
    const out = await searchIn(
      ws,
      { action: 'find', pattern: '*', max_results: 1_500 },
      { limits: { maxResults: 2_000 } },
    );
    expect(out.success).toBe(true);
    refused(await searchIn(ws, { action: 'find', pattern: '*', max_results: 1_500 }), 'invalid_request');
  });

  it('a lowered limit also lowers the per-action default instead of refusing a request without max_results', async () => {
    for (let i = 0; i < 15; i++) ws.write(`many/f${String(i).padStart(2, '0')}.md`, 'needle\n');
    const found = ok(await searchIn(ws, { action: 'find', pattern: '*.md' }, { limits: { maxResults: 10 } }));
    expect(found).toMatchObject({ shown: 10, count: 15, truncated: true });
    const grepped = ok(
      await searchIn(ws, { action: 'grep', pattern: 'needle', path: 'many' }, { limits: { maxResults: 10 } }),
    );
    expect(grepped).toMatchObject({ shown: 10, count: 15 });
  });

  it('the tool advertises the ceiling it enforces in its schema and description', () => {
    const tool = createSearchTool({ workspaceRoot: ws.root, limits: { maxResults: 20 } });
    const schema = z.toJSONSchema(tool.request) as unknown as { properties: { max_results: { maximum?: number } } };
    expect(schema.properties.max_results.maximum).toBe(20);
    expect(tool.description).toContain('up to 20');
    const plain = createSearchTool({ workspaceRoot: ws.root });
    expect((z.toJSONSchema(plain.request) as unknown as typeof schema).properties.max_results.maximum).toBe(1_000);
  });
});

describe('checking results never outlives the budget', () => {
  it('matches not confirmed before the deadline or an abort are left out and counted, never shown', async () => {
    const gate = await import('@bough/workspace').then((m) => m.Workspace.open(ws.root));
    const matches = [
      { path: 'src/a.ts', line: 1, text: 'needle a' },
      { path: 'z.ts', line: 1, text: 'needle z' },
    ];
    expect(await confirmMatches(gate, matches, 1_000, { deadline: Date.now() + 60_000 })).toEqual({
      kept: matches,
      dropped: 0,
      unchecked: 0,
    });
    expect(await confirmMatches(gate, matches, 1_000, { deadline: 0 })).toEqual({ kept: [], dropped: 0, unchecked: 2 });
    const aborted = AbortSignal.abort();
    expect(await confirmMatches(gate, matches, 1_000, { signal: aborted })).toMatchObject({ kept: [], unchecked: 2 });
  });
});

describe('RgSkipTally', () => {
  const log = (tail: string) => `rg: DEBUG|ignore::walk|crates/ignore/src/walk.rs:1942: ignoring ${tail}\n`;

  it('classifies the debug log by reason, across chunk boundaries, and keeps real messages apart', () => {
    const tally = new RgSkipTally();
    const text = [
      'rg: DEBUG|globset|crates/globset/src/lib.rs:506: glob converted to regex: Glob("**/.git")\n',
      log('./dist: Ignore(IgnoreMatch(Gitignore(Glob { from: Some("./.gitignore"), original: "dist/" })))'),
      log('./a: b.log: Ignore(IgnoreMatch(Gitignore(Glob { from: None })))'),
      log(
        './.git: Ignore(IgnoreMatch(Override(Glob(Matched(Glob { from: None, original: "!.git", actual: "**/.git" })))))',
      ),
      log(
        './.env: Ignore(IgnoreMatch(Override(Glob(Matched(Glob { from: None, original: "!.env", actual: "**/.env" })))))',
      ),
      log('./x.py: Ignore(IgnoreMatch(Override(Glob(UnmatchedIgnore))))'),
      log('./huge.json: 99999999 bytes'),
      'rg: DEBUG|grep_printer::standard|standard.rs:830: ignoring ./img.png: found binary data at offset 3\n',
      'rg: ./locked: Permission denied (os error 13)\n',
    ].join('');
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i += 7) tally.push(bytes.subarray(i, i + 7));
    tally.noteBinary('img.png'); // the same file reported on stdout too counts once
    tally.noteBinary('./other.bin');
    expect(tally.counts()).toEqual({ ignored: 2, tooLarge: 1, binary: 2, protectedFiles: 1 });
    expect(tally.messages()).toBe('rg: ./locked: Permission denied (os error 13)\n');
  });
});
