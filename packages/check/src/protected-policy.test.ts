import { describeProtectedPolicy, PROTECTED_CANARY } from '@bough/test-utils';
import { expect } from 'vitest';
import { handleCodeCheck } from './handle-check.js';

type Checked = { total: number; diagnostics: unknown[] };

describeProtectedPolicy({
  tool: 'code_check',
  open: ['ok.ts', 'export const a: number = 1;\n'],
  // A type error: checked, it would be reported with its line.
  secret: `const leaked: number = "${PROTECTED_CANARY}";\n`,
  walk: (root, protectedNames) =>
    handleCodeCheck({ paths: [] }, { workspaceRoot: root, ...(protectedNames ? { protectedNames } : {}) }),
  named: (root, path, protectedNames) => handleCodeCheck({ paths: [path] }, { workspaceRoot: root, protectedNames }),
  walked: (result) => expect((result as Checked).total).toBe(0),
  reachedWithout: (result) => expect((result as Checked).total).toBeGreaterThan(0),
  namedResult: (result, path) => expect((result as Checked).diagnostics, path).toEqual([]),
});
