import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@branchkit/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleCodeCheck } from './handle-check.js';

describe('code_check path safety', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({ 'ok.py': 'x = 1\n', '.env.py': 'import PROTECTED_CANARY\n' });
    ws.write('../ws-evil/leak.py', 'import OUTSIDE_SECRET_CANARY\n');
    ws.write('../ws-evil/leak.ts', 'const OUTSIDE_SECRET_CANARY: number = "x";\n');
  });
  afterEach(() => ws.cleanup());
  const run = (paths: string[]) => handleCodeCheck({ paths }, { workspaceRoot: ws.root });

  it('refuses outside paths with the workspace code and no leak', async () => {
    for (const path of ['../ws-evil', join(ws.outside, 'leak.py'), '/etc/passwd', 'a/../../ws-evil/leak.ts']) {
      const result = await run([path]);
      expect(result.status, path).toBe('error');
      expect(result.error_code, path).toBe('outside_workspace');
      expect(JSON.stringify(result)).not.toContain('OUTSIDE_SECRET_CANARY');
    }
  });

  it('skips links to outside when walking and refuses them when named', async () => {
    symlinkSync(ws.outside, ws.path('linked'));
    symlinkSync(join(ws.outside, 'leak.py'), ws.path('leak.py'));
    const walked = await run([]);
    expect(JSON.stringify(walked)).not.toContain('OUTSIDE_SECRET_CANARY');
    expect(walked.files_checked).toBe(1);
    const named = await run(['leak.py']);
    expect(named.status).toBe('error');
    expect(named.summary).not.toContain('ws-evil');
  });

  it('never reads protected files', async () => {
    expect(JSON.stringify(await run([]))).not.toContain('PROTECTED_CANARY');
    const named = await run(['.env.py']);
    expect(named).toMatchObject({ status: 'error', error_code: 'protected_path' });
  });
});
