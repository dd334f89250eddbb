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
  maxHttpSessions: {
    value: 32,
    reason: 'a handful of hosts and their subagents; each session holds its own file state',
  },
  httpSessionIdleMs: {
    value: 1_800_000,
    rule: 'timeout',
    reason: 'half an hour without a request: the host has gone away without closing its session',
  },
});

/** The resolved limits of `@bough/mcp`. */
export type McpLimits = LimitValues<keyof typeof MCP_LIMITS.defaults>;

/** The defaults used when a caller does not override a limit. */
export const DEFAULT_MCP_LIMITS: McpLimits = MCP_LIMITS.defaults;
