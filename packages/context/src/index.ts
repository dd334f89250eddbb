/** The `context` tool: lets a model inspect and curate the active view of its own branch. */
export { type ContextToolOptions, contextProvider, createContextTool } from './context-tool.js';
/** The failure code table of the `context` tool. */
export { CONTEXT_ERROR_CODES, type ContextErrorCode, type ContextFailure } from './errors.js';
/** Guidance text on curating one's own context, and the tool description that embeds it. */
export { CONTEXT_DESCRIPTION, CONTEXT_GUIDANCE, contextDescription } from './guidance.js';
/** The pure handler and its options. */
export { type ContextOptions, handleContext } from './handle-context.js';
/** Limits of the tool, each overridable. */
export { CONTEXT_LIMITS, type ContextLimits, DEFAULT_CONTEXT_LIMITS } from './limits.js';
/** The marker and instruction used by compaction. */
export { COMPACTION_PREFIX, SUMMARY_INSTRUCTION } from './prompts.js';
/** Request and response schemas (also the TypeScript types). */
export {
  type ContextInput,
  ContextRequest,
  ContextResponse,
  type ContextResponseFor,
  type ContextSuccessByAction,
} from './schema.js';
/** o200k_base token counting (the tokenizer is loaded on the first count). */
export { activeTokenCount, countTokens, messageTokens, TOKEN_COUNT_LONG_RUN_CHARS } from './tokens.js';
