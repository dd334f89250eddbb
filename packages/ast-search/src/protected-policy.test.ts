import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { DEFAULT_PROTECTED, type ProtectedNamePolicy } from '@bough/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleAstSearch } from './handle-ast-search.js';

const policy: ProtectedNamePolicy = {
  ...DEFAULT_PROTECTED,
  names: [...DEFAULT_PROTECTED.names, '.bough', 'secret.ts'],
};
const SECRET = 'const token = "TOKEN-1234";\n';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'main.ts': 'const token = "public";\n', 'secret.ts': SECRET, '.bough/state.ts': SECRET });
});
afterEach(() => ws.cleanup());

describe('ast_search honours the protected-name policy it is given', () => {
  it('matches only outside protected files and counts the skip', async () => {
    const r = await handleAstSearch(
      { pattern: 'const $A = $B', lang: 'typescript' },
      { workspaceRoot: ws.root, protectedNames: policy },
    );
    expect(r).toMatchObject({ success: true, status: 'matches' });
    const files = (r as { matches: { file: string }[] }).matches.map((match) => match.file);
    expect(files).toEqual(['main.ts']);
    expect(JSON.stringify(r)).not.toContain('TOKEN-1234');
    expect((r as { skipped?: Record<string, number> }).skipped?.protected).toBeGreaterThanOrEqual(1);
    const plain = await handleAstSearch({ pattern: 'const $A = $B', lang: 'typescript' }, { workspaceRoot: ws.root });
    expect((plain as { matches: { file: string }[] }).matches.map((match) => match.file)).toContain('secret.ts');
  });

  it('refuses a protected file or folder named outright', async () => {
    for (const path of ['secret.ts', '.bough/state.ts', '.bough']) {
      const r = await handleAstSearch(
        { pattern: 'const $A = $B', lang: 'typescript', path },
        { workspaceRoot: ws.root, protectedNames: policy },
      );
      expect(JSON.stringify(r), path).not.toContain('TOKEN-1234');
    }
  });
});
