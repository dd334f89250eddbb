import { expect, it } from 'vitest';

it('exports exactly these names from the public entry, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_PROTECTED",
      "DEFAULT_WORKSPACE_LIMITS",
      "WORKSPACE_ERROR_CODES",
      "Workspace",
      "WorkspaceError",
      "isProtectedName",
      "isWorkspaceFailure",
      "readWorkspaceText",
      "resolveInWorkspace",
    ]
  `);
});

it('keeps the helpers shared with sibling packages on the internal entry, and only there', async () => {
  const internal = Object.keys(await import('./shared-internals.js')).sort();
  expect(internal).toMatchInlineSnapshot(`
    [
      "FILE_STAMP_SETTLE_MS",
      "HeldParents",
      "LineCounter",
      "SYNC_FILE_BYTES",
      "TURN_MS",
      "Turns",
      "WorkMeter",
      "addWalkSkips",
      "changedLines",
      "countLineFeedsIn",
      "countLines",
      "countingBuffer",
      "drive",
      "emptySkipCounts",
      "extensionOf",
      "fileDiff",
      "fileStamp",
      "finish",
      "firstInvalidUtf8",
      "globToRegExp",
      "isInside",
      "lineChanges",
      "lineEndAfter",
      "lineStart",
      "linesBack",
      "linesForward",
      "linkedPathSync",
      "pacedLineChanges",
      "rereadAllowedFile",
      "rootRelative",
      "skipReasonOf",
      "splitLines",
      "stampOfStats",
      "stampParts",
      "stampSettled",
      "unifiedDiff",
      "unifiedTextDiff",
      "withHeader",
    ]
  `);
  const publicNames = Object.keys(await import('./index.js'));
  expect(internal.filter((name) => publicNames.includes(name))).toEqual([]);
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
