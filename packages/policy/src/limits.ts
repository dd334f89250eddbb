import { defineLimits, type LimitValues } from '@bough/core';

/**
 * Every limit of `@bough/policy`, each with its reason: the bounds of the bash command analysis. Override them
 * through the `limits` argument of `evaluatePermission` and `permissionHook` (`@bough/coding` passes its toolkit
 * limits of the same names, checked when the toolkit is made).
 */
export const POLICY_LIMITS = defineLimits('policy', {
  permissionScriptDepth: {
    value: 4,
    reason:
      'How deep permission checks follow nested shell scripts (`sh -c "sh -c \'…\'"`); deeper counts as unreadable.',
  },
  permissionMaxForms: {
    value: 256,
    reason: 'Most command forms permission checks derive from one bash command; more counts as unreadable.',
  },
});

/** The resolved limits of the policy's command analysis. */
export type PolicyLimits = LimitValues<keyof typeof POLICY_LIMITS.defaults>;

/** The defaults used when a caller does not override a limit. */
export const DEFAULT_POLICY_LIMITS: PolicyLimits = POLICY_LIMITS.defaults;
