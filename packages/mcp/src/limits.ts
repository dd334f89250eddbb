import { defineLimits, type LimitValues } from '@bough/core';

/** Every limit of `@bough/mcp`, each with its reason; override through the options of the function that uses it. */
export const MCP_LIMITS = defineLimits('mcp', {
  requestTimeoutMs: {
    value: 60_000,
    rule: 'timeout',
    reason: "the MCP SDK's own default; long tools should report progress or be called with a larger value",
  },
  maxToolNameLength: { value: 64, reason: 'OpenAI and Anthropic both cap function names at 64 characters' },
  maxResultChars: {
    value: 100_000,
    reason: 'roughly 25k tokens: enough for real results, small enough to leave room for the conversation',
  },
  maxListPages: { value: 100, reason: 'far more tools/list pages than any real server advertises' },
  rootsTimeoutMs: {
    value: 10_000,
    rule: 'timeout',
    reason: 'a client answers roots/list from memory; ten seconds means it is not going to',
  },
  drainTimeoutMs: {
    value: 330_000,
    rule: 'timeout',
    reason: "longer than the longest bash timeout (300 s), so every call's own timeout ends it first",
  },
  toolListTtlMs: {
    value: 300_000,
    rule: 'non_negative_integer',
    reason:
      'how long a 2026-07-28 client may keep the tool list: it is fixed while a server runs, and five minutes bounds ' +
      'how long a restarted one with other tools goes unnoticed',
  },
  progressIntervalMs: {
    value: 250,
    reason: "four progress notifications a second keep a host's timeout reset without flooding the connection",
  },
});

/** The resolved limits of `@bough/mcp`. */
export type McpLimits = LimitValues<keyof typeof MCP_LIMITS.defaults>;

/** The defaults used when a caller does not override a limit. */
export const DEFAULT_MCP_LIMITS: McpLimits = MCP_LIMITS.defaults;
