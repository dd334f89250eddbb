import { expect, it } from 'vitest';

it('exports exactly these names, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
    [
      "ALL_CODING_TOOLS",
      "CODING_ERROR_CODES",
      "CODING_LIMITS",
      "DEFAULT_CODING_LIMITS",
      "DEFAULT_CODING_TOOLS",
      "FileState",
      "NO_EVIDENCE",
      "NUDGE_FIELD",
      "NudgeEngine",
      "PERMISSION_PRESETS",
      "PRESET_RANK",
      "PROTECTED_BRANCHES",
      "STANDARD_SOURCES",
      "SUBAGENT_SYSTEM_PROMPT",
      "SandboxRequest",
      "SubagentRequest",
      "checkBeforeEdit",
      "codingToolkit",
      "commandsSandboxed",
      "composeHooks",
      "createSandbox",
      "defaultNudgeRules",
      "discardSandbox",
      "editorEvidence",
      "evaluatePermission",
      "hashFile",
      "isPresetName",
      "permissionHook",
      "permissionSubject",
      "readerEvidence",
      "resultOk",
      "runAgent",
      "sandboxCommit",
      "sandboxDiff",
      "sandboxMerge",
      "subagentRequest",
    ]
  `);
});
