export {
  AiSdkChatModel,
  AiSdkChatModelError,
  type AiSdkChatModelErrorKind,
  type AiSdkChatModelOptions,
  type RetryNotice,
} from './chat-model.js';
export { type AiSdkLimits, DEFAULT_AI_SDK_LIMITS } from './limits.js';
export { type AiSdkToolOptions, type AiSdkToolOutput, toAiSdkTool, toAiSdkTools } from './to-ai-sdk-tool.js';
