import { expect, it } from 'vitest';

it('exports exactly these names, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_PROTECTED",
      "DEFAULT_WORKSPACE_LIMITS",
      "FILE_STAMP_SETTLE_MS",
      "HeldParents",
      "SYNC_FILE_BYTES",
      "Turns",
      "WORKSPACE_ERROR_CODES",
      "Workspace",
      "WorkspaceError",
      "addWalkSkips",
      "countLineFeedsIn",
      "countingBuffer",
      "emptySkipCounts",
      "extensionOf",
      "fileStamp",
      "firstInvalidUtf8",
      "globToRegExp",
      "isInside",
      "isProtectedName",
      "isWorkspaceFailure",
      "linkedPathSync",
      "readWorkspaceText",
      "rereadAllowedFile",
      "resolveInWorkspace",
      "rootRelative",
      "skipReasonOf",
      "stampOfStats",
      "stampParts",
      "stampSettled",
    ]
  `);
});

it('gives a Workspace exactly these methods, so a new capability of the gate is a deliberate change', async () => {
  const { Workspace } = await import('./index.js');
  expect(Object.getOwnPropertyNames(Workspace.prototype).sort()).toMatchInlineSnapshot(`
    [
      "applyChanges",
      "constructor",
      "durable",
      "holdDirSync",
      "isProtected",
      "listDirectory",
      "mkdir",
      "move",
      "openOrLoad",
      "openRead",
      "relative",
      "replaceFile",
      "resolve",
      "walk",
      "writeFile",
    ]
  `);
});
