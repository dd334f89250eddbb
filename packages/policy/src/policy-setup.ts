import { ConfigurationError } from '@bough/core';
import type { PermissionPolicy } from './permission-policy.js';
import { isCatchAll } from './policy-rules.js';

/** One tool as the policy check at setup sees it. */
export interface PolicyTool {
  readonly name: string;
  /** The tool declares what its requests touch (`Tool.touches`). */
  readonly touches: boolean;
  /** Its rules are matched against a describer's subject (a source's own, or bash's and subagent's standard one). */
  readonly described: boolean;
}

/**
 * Refuses, at setup, a policy with a rule that could not be enforced: a rule naming particular paths (anything but
 * `*`) that applies to a tool which neither declares what its requests touch nor has a describer of its own. Matched
 * against a guess, such a rule would be silently allowed around (a patch's files, a move's target); refused here,
 * the user learns it before any call.
 *
 * @throws ConfigurationError naming the tool and the rule
 */
export function assertPolicyEnforceable(policy: PermissionPolicy, tools: readonly PolicyTool[]): void {
  for (const tool of tools) {
    if (tool.touches || tool.described) continue;
    for (const decision of ['deny', 'allow', 'ask'] as const) {
      const rules = policy[decision];
      const patterns = [...(rules?.[tool.name] ?? []), ...(rules?.['*'] ?? [])];
      const rule = patterns.find((pattern) => !isCatchAll(pattern));
      if (rule === undefined) continue;
      throw new ConfigurationError(
        `The permission policy's ${decision} rule ${JSON.stringify(rule)} applies to the tool ${tool.name}, which ` +
          'does not declare what its requests touch, so the rule could not be enforced on it. Give the tool a ' +
          '`touches` declaration (or its source a `permissionSubject`), or limit the rule to other tools.',
      );
    }
  }
}
