import { describeProtectedPolicy, PROTECTED_CANARY } from '@bough/test-utils';
import { expect } from 'vitest';
import { handleAstSearch } from './handle-ast-search.js';

const files = (result: unknown) => (result as { matches: { file: string }[] }).matches.map((match) => match.file);
const request = { pattern: 'const $A = $B', lang: 'typescript' } as const;

describeProtectedPolicy({
  tool: 'ast_search',
  open: ['main.ts', 'const token = "public";\n'],
  secret: `const token = "${PROTECTED_CANARY}";\n`,
  walk: (root, protectedNames) =>
    handleAstSearch(request, { workspaceRoot: root, ...(protectedNames ? { protectedNames } : {}) }),
  named: (root, path, protectedNames) => handleAstSearch({ ...request, path }, { workspaceRoot: root, protectedNames }),
  walked: (result) => {
    expect(result).toMatchObject({ status: 'matches' });
    expect(files(result)).toEqual(['main.ts']);
  },
  reachedWithout: (result) => expect(files(result)).toContain('secret.ts'),
});
