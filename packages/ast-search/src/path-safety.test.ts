import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@branchkit/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleAstSearch } from './handle-ast-search.js';

describe('ast_search path safety', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({ 'src/ok.py': 'print("inside")\n', '.env.py': 'print("PROTECTED-CANARY")\n' });
    ws.write('../ws-evil/leak.py', 'print("OUTSIDE-SECRET-CANARY")\n');
  });
  afterEach(() => ws.cleanup());
  const run = (path: string) => handleAstSearch({ pattern: 'print($A)', path }, { workspaceRoot: ws.root });

  it('refuses paths outside the workspace with the workspace error code', async () => {
    for (const path of ['../ws-evil', ws.outside, join(ws.outside, 'leak.py'), '/etc', 'src/../../ws-evil']) {
      const result = await run(path);
      expect(result.status, path).toBe('error');
      expect(result.error_code, path).toBe('outside_workspace');
      expect(JSON.stringify(result)).not.toContain('OUTSIDE-SECRET-CANARY');
    }
  });

  it('skips a symlinked directory and file pointing outside while walking', async () => {
    symlinkSync(ws.outside, ws.path('src/linked-dir'));
    symlinkSync(join(ws.outside, 'leak.py'), ws.path('src/linked.py'));
    const result = await run('.');
    expect(result.matches.map((m) => m.file)).toEqual(['src/ok.py']);
    expect(result.skipped?.links).toBe(2);
    expect(JSON.stringify(result)).not.toContain('OUTSIDE-SECRET-CANARY');
  });

  it('refuses a symlink named directly without echoing its target', async () => {
    symlinkSync(ws.outside, ws.path('out'));
    const result = await run('out');
    expect(result.status).toBe('error');
    expect(['symlink_rejected', 'outside_workspace']).toContain(result.error_code);
    expect(result.summary).not.toContain('ws-evil');
  });

  it('never reads protected files, whether walked or named', async () => {
    const walked = await run('.');
    expect(JSON.stringify(walked)).not.toContain('PROTECTED-CANARY');
    expect(walked.skipped?.protected).toBe(1);
    const named = await run('.env.py');
    expect(named).toMatchObject({ status: 'error', error_code: 'protected_path' });
    expect(JSON.stringify(named)).not.toContain('PROTECTED-CANARY');
  });

  it('reports a missing path as not_found and keeps working afterwards', async () => {
    expect(await run('nope')).toMatchObject({ status: 'error', error_code: 'not_found' });
    expect((await run('src')).status).toBe('matches');
  });
});
