export {
  AiSdkChatModel,
  AiSdkChatModelError,
  type AiSdkChatModelErrorKind,
  type AiSdkChatModelOptions,
  type RetryNotice,
} from './chat-model.js';
export { AI_SDK_ERROR_CODES, type AiSdkErrorCode, type AiSdkFailure } from './errors.js';
export type { AiSdkInputSchema } from './input-schema.js';
export type { AiSdkModelOutputArgument, AiSdkToolModelOutput } from './internal/model-output.js';
export type {
  AiSdkCallOptions,
  AiSdkFunctionTool,
  AiSdkJsonObject,
  AiSdkJsonValue,
  AiSdkLanguageModel,
  AiSdkPart,
  AiSdkPromptMessage,
  AiSdkSpecificationVersion,
  AiSdkTextPart,
  AiSdkToolCallPart,
  AiSdkToolResultPart,
} from './language-model.js';
export { AI_SDK_LIMITS, type AiSdkLimits, DEFAULT_AI_SDK_LIMITS } from './limits.js';
export {
  type AiSdkTool,
  type AiSdkToolCallOptions,
  type AiSdkToolOptions,
  type AiSdkToolOutput,
  toAiSdkTool,
  toAiSdkTools,
} from './to-ai-sdk-tool.js';
