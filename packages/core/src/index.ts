export { BoughError, type BoughErrorOptions, CloneError, ConfigurationError } from './bough-error.js';
export { type ActionCall, type ActOptions, Branch, type BranchOptions } from './branch.js';
export {
  BRANCH_JSON_FORMAT,
  type BranchFromJsonOptions,
  type BranchJson,
  type BranchJsonTool,
  branchFromJson,
  branchToJson,
} from './branch-json.js';
export type { BranchEvent, BranchView } from './branch-view.js';
export {
  type ExecuteOptions,
  executeTool,
  ToolCall,
  type ToolCallError,
  type ToolCallStatus,
} from './call.js';
export {
  type ChatCompletion,
  type ChatMessage,
  type ChatModel,
  type ChatOptions,
  type ChatToolCall,
  type ChatToolSpec,
  ScriptedChatModel,
  type ScriptStep,
  textReply,
  toolCallReply,
} from './chat-model.js';
export { branchToChatMessages, TURN_CALLS_KEY, toolsToChatSpecs, turnCallIds } from './chat-transcript.js';
export type { CloneOptions } from './clone.js';
export { CallErrorCode, describeZodError, errorMessage } from './errors.js';
export {
  defineErrorCodes,
  type ErrorCodeOf,
  type ErrorCodeTable,
  type FailureBuilder,
  failure,
  failureBuilder,
  failureSchema,
  isToolFailure,
  type OnlyKnownFields,
  type ToolFailure,
} from './failure.js';
export {
  defineLimits,
  formatBytes,
  formatCount,
  type LimitRule,
  type LimitSpec,
  type LimitTable,
  type LimitValues,
  limitText,
} from './limits.js';
export {
  type ActionRequestContent,
  type ActionResponseContent,
  isActionRequest,
  isActionResponse,
  type Message,
  type MessageContent,
  type MessageInput,
  type MessageRole,
  messageText,
} from './messages.js';
export { parseOnce } from './parsed.js';
export { type ParsedRequest, type ParsedRequestResult, parseToolRequest } from './parsed-request.js';
export { branchProvider, isProvider, type Provider, type ProviderContext, statelessProvider } from './provider.js';
export { type RegisterOptions, type Registrable, type RegistryEntry, ToolRegistry } from './registry.js';
export {
  clipLine,
  compactText,
  detailItems,
  detailLines,
  isRecord,
  joinLines,
  locationText,
  plural,
  stringOf,
  type ToolRendering,
  type ToolSummary,
  type ToolSummaryParts,
  toolOutputSummary,
  toolOutputText,
  type UnknownRecord,
} from './render.js';
export {
  definePrompt,
  type Prompt,
  type Resource,
  type ResourceCategory,
  type ResourceMeta,
  renderPrompt,
} from './resources.js';
export { toAnthropicTool, toMcpTool, toOpenAITool, toolJsonSchema } from './schema.js';
export { effectiveTimeout, isDefaultTimeout, MAX_TIMEOUT_MS } from './timeout.js';
export {
  defineTool,
  type ErrorHook,
  type HookCall,
  isTool,
  type PostHook,
  type PreHook,
  type PreHookResult,
  RESERVED_TOOL_NAMES,
  TOOL_NAME_PATTERN,
  type Tool,
  type ToolContext,
  type ToolHooks,
  type ToolProgress,
  type ToolScope,
  type ToolSpec,
  withHooks,
} from './tool.js';
export {
  NO_TOUCHES,
  type TouchContext,
  type TouchedMove,
  type Touches,
  type TouchesOf,
  touchedPaths,
  touchesNothing,
  touchesOf,
} from './touches.js';
