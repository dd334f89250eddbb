import { expect, it } from 'vitest';

it('exports exactly these names from the public entry, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_POLICY_LIMITS",
      "PERMISSION_PRESETS",
      "POLICY_LIMITS",
      "PRESET_RANK",
      "STANDARD_PERMISSION_SUBJECTS",
      "assertPolicyEnforceable",
      "evaluatePermission",
      "genericSubject",
      "isPresetName",
      "linkRuleOf",
      "literalSubject",
      "pathDenied",
      "permissionHook",
      "permissionSubject",
      "touchDenied",
    ]
  `);
});

it('keeps the compiled rules shared with @bough/coding on the internal entry, and only there', async () => {
  expect(Object.keys(await import('./shared-internals.js')).sort()).toMatchInlineSnapshot(`
    [
      "isCatchAll",
      "rebaseGlob",
      "toolRules",
    ]
  `);
});
