import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { DEFAULT_PROTECTED, type ProtectedNamePolicy } from '@bough/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleCodeCheck } from './handle-check.js';

// A session's own policy: the defaults plus its state folder and a file name of its own.
const policy: ProtectedNamePolicy = {
  ...DEFAULT_PROTECTED,
  names: [...DEFAULT_PROTECTED.names, '.bough', 'secret.ts'],
};
const BAD = 'const leaked: number = "TOKEN-1234";\n';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'ok.ts': 'export const a: number = 1;\n', 'secret.ts': BAD, '.bough/state.ts': BAD });
});
afterEach(() => ws.cleanup());

describe('code_check honours the protected-name policy it is given', () => {
  it('skips and counts protected files in a walk of the root, and never shows their text', async () => {
    const r = await handleCodeCheck({ paths: [] }, { workspaceRoot: ws.root, protectedNames: policy });
    expect(r).toMatchObject({ success: true, total: 0 });
    expect(JSON.stringify(r)).not.toContain('TOKEN-1234');
    expect((r as { skipped: Record<string, number> }).skipped.protected).toBeGreaterThanOrEqual(1);
    // Without the policy the same walk does check secret.ts: the skip above is the policy's doing.
    const plain = await handleCodeCheck({ paths: [] }, { workspaceRoot: ws.root });
    expect((plain as { total: number }).total).toBeGreaterThan(0);
  });

  it('refuses or skips protected files named outright', async () => {
    for (const path of ['secret.ts', '.bough/state.ts', '.bough']) {
      const r = await handleCodeCheck({ paths: [path] }, { workspaceRoot: ws.root, protectedNames: policy });
      expect(JSON.stringify(r), path).not.toContain('TOKEN-1234');
      expect((r as { diagnostics: unknown[] }).diagnostics, path).toEqual([]);
    }
  });
});
