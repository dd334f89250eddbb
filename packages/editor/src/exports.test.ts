import { expect, it } from 'vitest';

it('exports exactly these names, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_EDITOR_LIMITS",
      "EDITOR_ERROR_CODES",
      "EDITOR_LIMITS",
      "EditorEditSuccess",
      "EditorFailure",
      "EditorRequest",
      "EditorResponse",
      "EditorWriteSuccess",
      "changedLines",
      "createEditorTool",
      "editorProvider",
      "editorTouches",
      "handleEditor",
      "patchFiles",
      "unifiedTextDiff",
    ]
  `);
});
