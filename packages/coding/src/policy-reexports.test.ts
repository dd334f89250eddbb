// The permission names coding has always exported now come from @bough/policy: the very same values, not copies,
// so a policy or subject built with one package works with the other.
import * as policy from '@bough/policy';
import { expect, it } from 'vitest';
import * as coding from './index.js';

it('re-exports every permission value of @bough/policy it exported before, as the same object', () => {
  const pairs = [
    [coding.PERMISSION_PRESETS, policy.PERMISSION_PRESETS],
    [coding.PRESET_RANK, policy.PRESET_RANK],
    [coding.STANDARD_PERMISSION_SUBJECTS, policy.STANDARD_PERMISSION_SUBJECTS],
    [coding.evaluatePermission, policy.evaluatePermission],
    [coding.genericSubject, policy.genericSubject],
    [coding.isPresetName, policy.isPresetName],
    [coding.linkRuleOf, policy.linkRuleOf],
    [coding.literalSubject, policy.literalSubject],
    [coding.permissionHook, policy.permissionHook],
    [coding.permissionSubject, policy.permissionSubject],
  ] as const;
  for (const [ours, theirs] of pairs) expect(ours).toBe(theirs);
  expect(coding.DEFAULT_CODING_LIMITS.permissionScriptDepth).toBe(policy.DEFAULT_POLICY_LIMITS.permissionScriptDepth);
  expect(coding.DEFAULT_CODING_LIMITS.permissionMaxForms).toBe(policy.DEFAULT_POLICY_LIMITS.permissionMaxForms);
});
