/** Every limit of @bough/mcp, each overridable through the options of the function that uses it. */
export interface McpLimits {
  /** How long the client waits for one remote request (tools/list page or tools/call) before giving up. */
  readonly requestTimeoutMs: number;
  /** Longest model-facing name a registered remote tool may have (providers reject longer function names). */
  readonly maxToolNameLength: number;
  /** Most characters of remote text kept in one result, so a chatty server cannot flood the model's context. */
  readonly maxResultChars: number;
  /** Most tools/list pages followed, so a server that always returns a cursor cannot loop us forever. */
  readonly maxListPages: number;
  /** How long a server waits for the client's answer to roots/list. */
  readonly rootsTimeoutMs: number;
  /** After stdin closed, the longest a stdio server waits for the answers it still owes before it closes anyway. */
  readonly drainTimeoutMs: number;
  /** Most HTTP sessions open at once; more initialize requests get 503 until one closes. */
  readonly maxHttpSessions: number;
  /** An HTTP session without a request for this long is closed (its calls aborted, its file state dropped). */
  readonly httpSessionIdleMs: number;
}

/** Defaults for {@link McpLimits}. */
export const DEFAULT_MCP_LIMITS: McpLimits = Object.freeze({
  // The MCP SDK's own default request timeout; long tools should report progress or be called with a larger value.
  requestTimeoutMs: 60_000,
  // OpenAI and Anthropic both cap function names at 64 characters.
  maxToolNameLength: 64,
  // Roughly 25k tokens: enough for real results, small enough to leave room for the conversation.
  maxResultChars: 100_000,
  // 100 pages is far more than any real server advertises.
  maxListPages: 100,
  // A client answers roots/list from memory; ten seconds means it is not going to.
  rootsTimeoutMs: 10_000,
  // Longer than the longest bash timeout (300 s), so every call's own timeout ends it first.
  drainTimeoutMs: 330_000,
  // A handful of hosts and their subagents; each session holds its own file state.
  maxHttpSessions: 32,
  // Half an hour without a request: the host has gone away without closing its session.
  httpSessionIdleMs: 1_800_000,
});
