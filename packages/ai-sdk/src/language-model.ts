// The part of an AI SDK language model that AiSdkChatModel uses, declared here instead of imported from one major
// of `@ai-sdk/provider`: the models of provider specification v2 (ai 5), v3 (ai 6) and v4 (ai 7) all have this
// shape, so one parameter type accepts each of them, and this package's declarations import no `@ai-sdk/*` types
// (whose `json-schema` import fails a strict user build that lacks `@types/json-schema`).

/** The provider specifications whose language models {@link AiSdkChatModel} drives. */
export type AiSdkSpecificationVersion = 'v2' | 'v3' | 'v4';

/** A JSON value, as the specification passes provider options. */
export type AiSdkJsonValue = null | string | number | boolean | AiSdkJsonObject | AiSdkJsonValue[];

/** A JSON object, as the specification passes provider options (v2 admits no `undefined` members, so neither do we). */
export interface AiSdkJsonObject {
  [key: string]: AiSdkJsonValue;
}

/** A text part of a prompt message. */
export interface AiSdkTextPart {
  type: 'text';
  text: string;
}

/** A tool call the assistant made earlier in the conversation. */
export interface AiSdkToolCallPart {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** The result of an earlier tool call, sent back as text. */
export interface AiSdkToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  output: { type: 'text'; value: string };
}

/** One message of the prompt: the subset of every specification's message union that this package sends. */
export type AiSdkPromptMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: AiSdkTextPart[] }
  | { role: 'assistant'; content: (AiSdkTextPart | AiSdkToolCallPart)[] }
  | { role: 'tool'; content: AiSdkToolResultPart[] };

/** A function tool offered to the model, with its JSON Schema. */
export interface AiSdkFunctionTool {
  type: 'function';
  name: string;
  description?: string;
  // biome-ignore lint/suspicious/noExplicitAny: each specification types this with `json-schema`'s JSONSchema7, which we must not import.
  inputSchema: any;
}

/** The call options this package sends: valid call options of specification v2, v3 and v4 alike. */
export interface AiSdkCallOptions {
  prompt: AiSdkPromptMessage[];
  tools?: AiSdkFunctionTool[];
  temperature?: number;
  maxOutputTokens?: number;
  headers?: Record<string, string | undefined>;
  providerOptions?: Record<string, AiSdkJsonObject>;
  abortSignal?: AbortSignal;
}

/** A content or stream part: read by its `type`, the rest checked where it is read. */
export interface AiSdkPart {
  readonly type: string;
}

/**
 * An AI SDK language model of provider specification v2, v3 or v4: what `createOpenAICompatible(...)("id")`, the
 * other `@ai-sdk/*` providers of ai 5, 6 and 7, and their `MockLanguageModelV2/V3/V4` return.
 */
export interface AiSdkLanguageModel {
  readonly specificationVersion: AiSdkSpecificationVersion;
  readonly provider: string;
  readonly modelId: string;
  /** One request, the whole answer at once. */
  doGenerate(options: AiSdkCallOptions): PromiseLike<{ readonly content: readonly AiSdkPart[] }>;
  /** One request, the answer as a stream of parts. */
  doStream(options: AiSdkCallOptions): PromiseLike<{ readonly stream: ReadableStream<AiSdkPart> }>;
}

const SPECIFICATIONS: readonly unknown[] = ['v2', 'v3', 'v4'] satisfies AiSdkSpecificationVersion[];

/** True for an object that says it is a language model of a specification this package drives. */
export function isSupportedModel(model: unknown): model is AiSdkLanguageModel {
  return (
    typeof model === 'object' &&
    model !== null &&
    SPECIFICATIONS.includes((model as { specificationVersion?: unknown }).specificationVersion)
  );
}
