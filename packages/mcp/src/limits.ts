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
});
