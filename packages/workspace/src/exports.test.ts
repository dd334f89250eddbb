import { expect, it } from 'vitest';

it('exports exactly these names, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_PROTECTED",
      "DEFAULT_WORKSPACE_LIMITS",
      "WORKSPACE_ERROR_CODES",
      "Workspace",
      "WorkspaceError",
      "addWalkSkips",
      "countLineFeedsIn",
      "countingBuffer",
      "emptySkipCounts",
      "extensionOf",
      "firstInvalidUtf8",
      "globToRegExp",
      "isProtectedName",
      "isWorkspaceFailure",
      "readWorkspaceText",
      "resolveInWorkspace",
      "skipReasonOf",
    ]
  `);
});
