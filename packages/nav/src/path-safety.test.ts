import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, snapshotTree, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleCodeNav } from './handle-nav.js';
import { NavCache } from './nav-cache.js';
import type { NavInput } from './schema.js';

const CANARIES = ['OUTSIDE_SECRET_CANARY', 'OUTSIDE-SECRET-CANARY', 'PROTECTED_CANARY'];

describe('code_nav path safety', () => {
  let ws: TempWorkspace;
  let outsideBefore: string;
  let cache: NavCache;
  const outputs: unknown[] = [];
  beforeEach(() => {
    ws = makeWorkspace({ 'a.py': 'def ok():\n    pass\n', '.env.py': 'def PROTECTED_CANARY():\n    pass\n' });
    ws.write('../ws-evil/leak.py', 'def OUTSIDE_SECRET_CANARY():\n    pass\n');
    ws.write('../ws-evil/leak.ts', 'export function OUTSIDE_SECRET_CANARY() {}\n');
    ws.write('../ws-evil/shared.ts', 'export function shared() {} // OUTSIDE_SECRET_CANARY\n');
    outsideBefore = snapshotTree(ws.outside);
    cache = new NavCache();
    outputs.length = 0;
  });
  afterEach(() => {
    // Nothing outside was created, changed or removed, and no outside or protected byte reached any output.
    expect(snapshotTree(ws.outside)).toBe(outsideBefore);
    for (const output of outputs) for (const canary of CANARIES) expect(JSON.stringify(output)).not.toContain(canary);
    ws.cleanup();
  });
  const run = async (path: string, action = 'outline', symbol?: string, limits?: Record<string, number>) => {
    const result = await handleCodeNav({ action, path, ...(symbol ? { symbol } : {}) } as NavInput, {
      workspaceRoot: ws.root,
      cache,
      ...(limits ? { limits } : {}),
    });
    outputs.push(result);
    return result;
  };

  it('refuses a whitespace-only path as invalid_path instead of trimming it to the root; "" stays the root', async () => {
    for (const path of ['   ', '\t']) {
      expect(await run(path), JSON.stringify(path)).toMatchObject({ success: false, error_code: 'invalid_path' });
      expect(await run(path, 'find_definition', 'ok')).toMatchObject({ success: false, error_code: 'invalid_path' });
    }
    expect(await run('', 'find_definition', 'ok')).toMatchObject({ success: true });
  });

  it('refuses outside paths, prefix siblings and pseudo-filesystems with the workspace code', async () => {
    const attempts = [
      '../ws-evil',
      join(ws.outside, 'leak.py'),
      `${ws.root}-evil/leak.ts`,
      '/etc/hostname',
      '/proc/self/environ',
      'x/../../ws-evil/leak.ts',
    ];
    for (const path of attempts) {
      expect(await run(path), path).toMatchObject({ success: false, error_code: 'outside_workspace' });
      expect(await run(path, 'find_references', 'OUTSIDE_SECRET_CANARY'), path).toMatchObject({ success: false });
    }
    expect((await run('a.py')).success).toBe(true);
  });

  it('never follows links out in directory queries, counts them as skipped, and refuses them when named', async () => {
    symlinkSync(ws.outside, ws.path('linked'));
    symlinkSync(join(ws.outside, 'leak.ts'), ws.path('leak.ts'));
    symlinkSync(join(ws.outside, 'leak.py'), ws.path('leak.py'));
    for (const action of ['find_references', 'find_definition']) {
      const result = await run('.', action, 'OUTSIDE_SECRET_CANARY');
      expect(result, action).toMatchObject({ success: true, items: [] });
      expect(result.skipped?.links, action).toBe(3);
    }
    const outline = await run('.');
    expect(outline.items.map((i) => i.file)).toEqual(['a.py']);
    for (const named of ['leak.ts', 'leak.py', 'linked', 'linked/leak.py']) {
      const result = await run(named);
      expect(result.success, named).toBe(false);
      expect(['symlink_rejected', 'outside_workspace'], named).toContain(result.error_code);
      expect(result.error, named).not.toContain('ws-evil');
    }
  });

  it('does not resolve a TypeScript import that leads out of the workspace', async () => {
    symlinkSync(ws.outside, ws.path('vendor'));
    ws.write('main.ts', "import { shared } from '../ws-evil/shared';\nshared();\n");
    ws.write('other.ts', "import { shared } from './vendor/shared';\nshared();\n");
    // Unresolved, each import is a declaration of its own: nothing is found in (or reported from) the outside file.
    const refs = await run('.', 'find_references', 'shared');
    expect(refs.items.map((i) => `${i.kind} ${i.file}:${i.line}`)).toEqual([
      'definition main.ts:1',
      'reference main.ts:2',
      'definition other.ts:1',
      'reference other.ts:2',
    ]);
  });

  it('never reads protected files; names are judged by the workspace policy, not by extension', async () => {
    ws.write('keys/id_rsa.py', 'def from_key():\n    pass\n');
    ws.write('cfg/.ENV.ts', 'export function PROTECTED_CANARY() {}\n');
    const outline = await run('.');
    expect(outline.items.map((i) => `${i.file}:${i.name}`)).toEqual(['a.py:ok', 'keys/id_rsa.py:from_key']);
    expect(outline.skipped?.protected).toBe(2);
    expect((await run('.', 'find_definition', 'PROTECTED_CANARY')).items).toEqual([]);
    for (const named of ['.env.py', '.ENV.PY', 'cfg/.ENV.ts', '.env.py.']) {
      expect(await run(named), named).toMatchObject({ success: false, error_code: 'protected_path' });
    }
  });

  it('does not hang on a FIFO: walked it is skipped as special, named it is refused', async () => {
    execFileSync('mkfifo', [ws.path('pipe.py')]);
    execFileSync('mkfifo', [ws.path('pipe.ts')]);
    const walked = await run('', 'find_references', 'ok');
    expect(walked).toMatchObject({ success: true, skipped: { special: 2 } });
    expect(await run('pipe.py')).toMatchObject({ success: false, error_code: 'special_file' });
    expect(await run('pipe.ts', 'find_definition', 'x')).toMatchObject({ success: false, error_code: 'special_file' });
  });

  it('caps huge files: refused when named, skipped as too_large in a directory', async () => {
    ws.write('big.py', 'def f():\n    pass\n'.repeat(100));
    expect(await run('big.py', 'outline', undefined, { maxFileBytes: 500 })).toMatchObject({
      success: false,
      error_code: 'too_large',
    });
    const dir = await run('.', 'outline', undefined, { maxFileBytes: 500 });
    expect(dir.items.map((i) => i.file)).toEqual(['a.py']);
    expect(dir.skipped?.too_large).toBe(1);
  });
});
