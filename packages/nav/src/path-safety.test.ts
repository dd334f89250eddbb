import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@branchkit/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleCodeNav } from './handle-nav.js';

describe('code_nav path safety', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({ 'a.py': 'def ok():\n    pass\n', '.env.py': 'def PROTECTED_CANARY():\n    pass\n' });
    ws.write('../ws-evil/leak.py', 'def OUTSIDE_SECRET_CANARY():\n    pass\n');
    ws.write('../ws-evil/leak.ts', 'export function OUTSIDE_SECRET_CANARY() {}\n');
  });
  afterEach(() => ws.cleanup());
  const run = (path: string, action = 'outline', symbol?: string) =>
    handleCodeNav({ action, path, ...(symbol ? { symbol } : {}) }, { workspaceRoot: ws.root });

  it('refuses outside paths with the workspace code', async () => {
    for (const path of ['../ws-evil', join(ws.outside, 'leak.py'), '/etc/hostname', 'x/../../ws-evil/leak.ts']) {
      const result = await run(path);
      expect(result, path).toMatchObject({ success: false, error_code: 'outside_workspace' });
      expect(JSON.stringify(result)).not.toContain('OUTSIDE_SECRET_CANARY');
    }
  });

  it('skips links to outside in directory queries and refuses them when named', async () => {
    symlinkSync(ws.outside, ws.path('linked'));
    symlinkSync(join(ws.outside, 'leak.ts'), ws.path('leak.ts'));
    for (const symbol of ['OUTSIDE_SECRET_CANARY']) {
      const refs = await run('.', 'find_references', symbol);
      expect(refs).toEqual({ success: true, items: [] });
    }
    const outline = await run('.');
    expect(JSON.stringify(outline)).not.toContain('OUTSIDE_SECRET_CANARY');
    const named = await run('leak.ts');
    expect(named.success).toBe(false);
    expect(named.error).not.toContain('ws-evil');
  });

  it('never reads protected files', async () => {
    expect(JSON.stringify(await run('.'))).not.toContain('PROTECTED_CANARY');
    expect(await run('.env.py')).toMatchObject({ success: false, error_code: 'protected_path' });
  });
});
