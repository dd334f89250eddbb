import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, snapshotTree, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckCache } from './check-cache.js';
import { handleCodeCheck } from './handle-check.js';

// One cache for the file, as one tool keeps it, so the TypeScript library is parsed once.
const cache = new CheckCache();
const CANARIES = ['OUTSIDE_SECRET_CANARY', 'OUTSIDE-SECRET-CANARY', 'PROTECTED_CANARY'];

describe('code_check path safety', () => {
  let ws: TempWorkspace;
  let outsideBefore: string;
  const outputs: unknown[] = [];
  beforeEach(() => {
    ws = makeWorkspace({ 'ok.py': 'x = 1\n', '.env.py': 'import PROTECTED_CANARY\n' });
    ws.write('../ws-evil/leak.py', 'import OUTSIDE_SECRET_CANARY\n');
    ws.write('../ws-evil/leak.ts', 'const OUTSIDE_SECRET_CANARY: number = "x";\n');
    ws.write('../ws-evil/tsconfig.json', '{ "compilerOptions": { "noUnusedLocals": true } }');
    ws.write('../ws-evil/ruff.toml', 'line-length = 5\n[lint]\nselect = ["E501"]\n');
    outsideBefore = snapshotTree(ws.outside);
    outputs.length = 0;
  });
  afterEach(() => {
    // Nothing outside was created, changed or removed, and no outside or protected byte reached any output.
    expect(snapshotTree(ws.outside)).toBe(outsideBefore);
    for (const output of outputs) for (const canary of CANARIES) expect(JSON.stringify(output)).not.toContain(canary);
    ws.cleanup();
  });
  const run = async (paths: string[], limits?: Record<string, number>) => {
    const result = await handleCodeCheck({ paths }, { workspaceRoot: ws.root, cache, ...(limits ? { limits } : {}) });
    outputs.push(result);
    return result;
  };

  it('refuses outside paths, prefix siblings and pseudo-filesystems with the workspace code', async () => {
    const attempts = [
      '../ws-evil',
      '../ws-evil/leak.py',
      join(ws.outside, 'leak.py'),
      `${ws.root}-evil/leak.ts`,
      'a/../../ws-evil/leak.ts',
      '/etc/passwd',
      '/proc/self/environ',
    ];
    for (const path of attempts) {
      const result = await run([path]);
      expect(result, path).toMatchObject({ status: 'error', error_code: 'outside_workspace' });
    }
    // One refused path fails the whole call, even beside a good one.
    expect(await run(['ok.py', '../ws-evil/leak.py'])).toMatchObject({ error_code: 'outside_workspace' });
    // The tool still works afterwards.
    expect((await run(['ok.py'])).status).toBe('ok');
  });

  it('never follows links out while walking, counts them as skipped, and refuses them when named', async () => {
    symlinkSync(ws.outside, ws.path('linked'));
    symlinkSync(join(ws.outside, 'leak.py'), ws.path('leak.py'));
    symlinkSync(join(ws.outside, 'leak.ts'), ws.path('leak.ts'));
    const walked = await run([]);
    expect(walked.files_checked).toBe(1);
    expect(walked.skipped?.links).toBe(3);
    for (const named of ['leak.py', 'leak.ts', 'linked', 'linked/leak.py']) {
      const result = await run([named]);
      expect(result.status, named).toBe('error');
      expect(['symlink_rejected', 'outside_workspace'], named).toContain(result.error_code);
      expect(result.summary, named).not.toContain('ws-evil');
    }
  });

  it('never reads protected files; names are judged by the workspace policy, not by extension', async () => {
    ws.write('.ENV.PY', 'import PROTECTED_CANARY\n');
    ws.write('keys/id_rsa.py', 'import os\n');
    const walked = await run([]);
    expect(walked.skipped?.protected).toBe(2);
    for (const named of ['.env.py', '.ENV.PY', '.env.py.', 'sub/../.env.py']) {
      expect(await run([named]), named).toMatchObject({ status: 'error', error_code: 'protected_path' });
    }
    // `id_rsa` is protected as an exact name; a Python module called id_rsa.py is ordinary source and is checked.
    expect(walked.diagnostics.map((d) => `${d.file}:${d.code}`)).toEqual(['keys/id_rsa.py:F401']);
  });

  it('does not hang on a FIFO: walked it is skipped as special, named it is refused', async () => {
    execFileSync('mkfifo', [ws.path('pipe.py')]);
    execFileSync('mkfifo', [ws.path('pipe.ts')]);
    const walked = await run(['']);
    expect(walked.status).toBe('ok');
    expect(walked.skipped?.special).toBe(2);
    expect(await run(['pipe.py'])).toMatchObject({ status: 'error', error_code: 'special_file' });
    expect(await run(['pipe.ts'])).toMatchObject({ status: 'error', error_code: 'special_file' });
  });

  it('caps huge files: skipped as too_large with a note, without an absolute path in it', async () => {
    ws.write('big.py', 'import os\n'.repeat(200));
    ws.write('big.ts', 'export const a: number = "x";\n'.repeat(100));
    const result = await run(['big.py', 'big.ts', 'ok.py'], { maxFileBytes: 1_000 });
    expect(result.skipped?.too_large).toBe(2);
    expect(result.files_checked).toBe(1);
    expect(result.summary).toContain('big.py skipped');
    expect(result.summary).toContain('big.ts skipped');
    expect(result.summary).not.toContain(ws.root);
  });

  it('never follows a tsconfig extends chain, a linked tsconfig or a linked ruff.toml out of the workspace', async () => {
    ws.write('a.ts', 'export function f() { const unused = 1; return 2; }\n');
    ws.write('tsconfig.json', '{ "extends": "../ws-evil/tsconfig.json" }');
    expect((await run(['a.ts'])).diagnostics).toEqual([]);
    ws.write('tsconfig.json', `{ "extends": ${JSON.stringify(join(ws.outside, 'tsconfig.json'))} }`);
    expect((await run(['a.ts'])).diagnostics).toEqual([]);
    execFileSync('rm', [ws.path('tsconfig.json')]);
    symlinkSync(join(ws.outside, 'tsconfig.json'), ws.path('tsconfig.json'));
    expect((await run(['a.ts'])).diagnostics).toEqual([]);
    // The same options inside the workspace do apply, so the checks above can fail.
    mkdirSync(ws.path('cfg'));
    ws.write('cfg/base.json', '{ "compilerOptions": { "noUnusedLocals": true } }');
    execFileSync('rm', [ws.path('tsconfig.json')]);
    ws.write('tsconfig.json', '{ "extends": "./cfg/base.json" }');
    expect((await run(['a.ts'])).diagnostics.map((d) => d.code)).toEqual(['TS6133']);

    ws.write('long.py', 'value = 1234567\n');
    symlinkSync(join(ws.outside, 'ruff.toml'), ws.path('ruff.toml'));
    expect((await run(['long.py'])).diagnostics).toEqual([]);
  });

  it('does not load a TypeScript import that leads out through a linked directory', async () => {
    symlinkSync(ws.outside, ws.path('vendor'));
    ws.write('main.ts', "import { x } from './vendor/leak';\nexport const y = x;\n");
    const result = await run(['main.ts']);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['TS2307']);
  });
});
