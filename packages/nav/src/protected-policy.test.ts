import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { DEFAULT_PROTECTED, type ProtectedNamePolicy } from '@bough/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleCodeNav } from './handle-nav.js';

const policy: ProtectedNamePolicy = {
  ...DEFAULT_PROTECTED,
  names: [...DEFAULT_PROTECTED.names, '.bough', 'secret.ts'],
};
const SECRET = 'export function loadConfig() { return "TOKEN-1234"; }\n';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({
    'main.ts': 'export function loadConfig() { return 1; }\nloadConfig();\n',
    'secret.ts': SECRET,
    '.bough/state.ts': SECRET,
  });
});
afterEach(() => ws.cleanup());

describe('code_nav honours the protected-name policy it is given', () => {
  it('finds definitions and references only outside protected files, and counts the skip', async () => {
    for (const action of ['find_definition', 'find_references'] as const) {
      const r = await handleCodeNav(
        { action, symbol: 'loadConfig', path: '' },
        { workspaceRoot: ws.root, protectedNames: policy },
      );
      expect(r, action).toMatchObject({ success: true });
      const files = (r as { items: { file: string }[] }).items.map((item) => item.file);
      expect(files.length, action).toBeGreaterThan(0);
      expect(
        files.every((file) => file === 'main.ts'),
        `${action}: ${files}`,
      ).toBe(true);
      expect(JSON.stringify(r)).not.toContain('TOKEN-1234');
    }
    // Without the policy secret.ts is an ordinary file: the skip above is the policy's doing.
    const plain = await handleCodeNav(
      { action: 'find_definition', symbol: 'loadConfig', path: '' },
      { workspaceRoot: ws.root },
    );
    expect((plain as { items: { file: string }[] }).items.map((item) => item.file)).toContain('secret.ts');
  });

  it('refuses an outline of a protected file', async () => {
    for (const path of ['secret.ts', '.bough/state.ts']) {
      const r = await handleCodeNav({ action: 'outline', path }, { workspaceRoot: ws.root, protectedNames: policy });
      expect(r, path).toMatchObject({ success: false });
      expect(JSON.stringify(r)).not.toContain('TOKEN-1234');
    }
  });
});
