import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, snapshotTree, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleAstSearch } from './handle-ast-search.js';

const CANARIES = ['OUTSIDE-SECRET-CANARY', 'PROTECTED-CANARY'];

describe('ast_search path safety', () => {
  let ws: TempWorkspace;
  let outsideBefore: string;
  const outputs: unknown[] = [];
  beforeEach(() => {
    ws = makeWorkspace({ 'src/ok.py': 'print("inside")\n', '.env.py': 'print("PROTECTED-CANARY")\n' });
    ws.write('../ws-evil/leak.py', 'print("OUTSIDE-SECRET-CANARY")\n');
    ws.write('../ws-evil/leak.go', 'package p\nfunc f() { fmt.Println("OUTSIDE-SECRET-CANARY") }\n');
    outsideBefore = snapshotTree(ws.outside);
    outputs.length = 0;
  });
  afterEach(() => {
    // Nothing outside was created, changed or removed, and no outside or protected byte reached any output.
    expect(snapshotTree(ws.outside)).toBe(outsideBefore);
    for (const output of outputs) for (const canary of CANARIES) expect(JSON.stringify(output)).not.toContain(canary);
    ws.cleanup();
  });
  const run = async (path: string, extra: Record<string, unknown> = {}, limits?: Record<string, number>) => {
    const result = await handleAstSearch(
      { pattern: 'print($A)', path, ...extra },
      { workspaceRoot: ws.root, ...(limits ? { limits } : {}) },
    );
    outputs.push(result);
    return result;
  };

  it('refuses paths outside the workspace, prefix siblings and pseudo-filesystems with the workspace code', async () => {
    const attempts = [
      '../ws-evil',
      ws.outside,
      `${ws.root}-evil`,
      join(ws.outside, 'leak.py'),
      '/etc',
      '/proc/self',
      'src/../../ws-evil',
    ];
    for (const path of attempts) {
      const result = await run(path);
      expect(result.status, path).toBe('error');
      expect(result.error_code, path).toBe('outside_workspace');
    }
    expect((await run('src')).status).toBe('matches');
  });

  it('skips linked directories and files pointing outside while walking, and counts them', async () => {
    symlinkSync(ws.outside, ws.path('src/linked-dir'));
    symlinkSync(join(ws.outside, 'leak.py'), ws.path('src/linked.py'));
    symlinkSync(join(ws.outside, 'leak.go'), ws.path('src/linked.go'));
    const result = await run('.');
    expect(result.matches.map((m) => m.file)).toEqual(['src/ok.py']);
    expect(result.skipped?.links).toBe(3);
    const go = await run('', { pattern: 'fmt.Println($$$A)', lang: 'go' });
    expect(go).toMatchObject({ status: 'ok', total: 0 });
  });

  it('refuses a link named directly, or a path through one, without echoing its target', async () => {
    symlinkSync(ws.outside, ws.path('out'));
    symlinkSync(join(ws.outside, 'leak.py'), ws.path('leak.py'));
    for (const path of ['out', 'out/leak.py', 'leak.py']) {
      const result = await run(path);
      expect(result.status, path).toBe('error');
      expect(['symlink_rejected', 'outside_workspace'], path).toContain(result.error_code);
      expect(result.summary, path).not.toContain('ws-evil');
    }
  });

  it('never reads protected files; names are judged by the workspace policy, not by extension', async () => {
    ws.write('keys/id_rsa.py', 'print("a module named like a key")\n');
    ws.write('cfg/.ENV.PY', 'print("PROTECTED-CANARY")\n');
    const walked = await run('.');
    expect(walked.skipped?.protected).toBe(2);
    expect(walked.matches.map((m) => m.file).sort()).toEqual(['keys/id_rsa.py', 'src/ok.py']);
    for (const path of ['.env.py', 'cfg/.ENV.PY', '.env.py.', 'cfg']) {
      const named = await run(path);
      if (path === 'cfg') expect(named.status).toBe('ok');
      else expect(named, path).toMatchObject({ status: 'error', error_code: 'protected_path' });
    }
  });

  it('does not hang on a FIFO: walked it is skipped as special, named it is refused', async () => {
    execFileSync('mkfifo', [ws.path('src/pipe.py')]);
    const walked = await run('src');
    expect(walked).toMatchObject({ status: 'matches', total: 1 });
    expect(walked.skipped?.special).toBe(1);
    expect(await run('src/pipe.py')).toMatchObject({ status: 'error', error_code: 'special_file' });
  });

  it('caps huge files: skipped as too_large and said in the summary', async () => {
    ws.write('src/big.py', 'print(1)\n'.repeat(200));
    const result = await run('src', {}, { maxFileBytes: 1_000 });
    expect(result.matches.map((m) => m.file)).toEqual(['src/ok.py']);
    expect(result.skipped?.too_large).toBe(1);
    expect(result.summary).toMatch(/1 file\(s\) could not be searched/);
    const named = await run('src/big.py', {}, { maxFileBytes: 1_000 });
    expect(named).toMatchObject({ status: 'ok', total: 0, skipped: { too_large: 1 } });
  });

  it('reports a missing path as not_found and keeps working afterwards', async () => {
    expect(await run('nope')).toMatchObject({ status: 'error', error_code: 'not_found' });
    expect((await run('src')).status).toBe('matches');
  });
});
