/**
 * `@bough/policy`: the permission policy of bough's tools. Rules per tool name (deny, then allow, then ask, else
 * deny), presets, the subject each call is matched on, the link rule a workspace gate asks, and the pre hook that
 * enforces a policy on a core registry or branch.
 *
 * @packageDocumentation
 */

/** Every limit of the package (the bounds of the bash command analysis). */
export { DEFAULT_POLICY_LIMITS, POLICY_LIMITS, type PolicyLimits } from './limits.js';
/** Permission policies and their presets. */
export {
  isPresetName,
  PERMISSION_PRESETS,
  type PermissionDecision,
  type PermissionPolicy,
  type PermissionPresetName,
  type PermissionRules,
  PRESET_RANK,
} from './permission-policy.js';
/** The subject string permission patterns match: each source's describer, the standard ones, the generic one. */
export {
  genericSubject,
  literalSubject,
  type PermissionLimits,
  type PermissionSubject,
  type PermissionSubjectDescriber,
  permissionSubject,
  STANDARD_PERMISSION_SUBJECTS,
} from './permission-subject.js';
/** A policy's evaluation, the link rule and the hook that enforces it. */
export {
  type AskHandler,
  evaluatePermission,
  linkRuleOf,
  type PermissionAsk,
  type PermissionCallContext,
  type PermissionVerdict,
  pathDenied,
  permissionHook,
  touchDenied,
} from './permissions.js';
/** The check at setup that refuses a rule which could not be enforced on a tool. */
export { assertPolicyEnforceable, type PolicyTool } from './policy-setup.js';
