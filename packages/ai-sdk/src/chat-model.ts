import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatCompletion, ChatMessage, ChatModel, ChatOptions, ChatToolCall } from '@bough/core';
import { BoughError, ConfigurationError } from '@bough/core';
import { isApiCallError } from './internal/api-call-error.js';
import { parseToolArguments } from './internal/json-arguments.js';
import { toFunctionTools, toPrompt } from './internal/prompt.js';
import { backoffMs, retryAfterMs } from './internal/retry.js';
import { type AiSdkCallOptions, type AiSdkLanguageModel, type AiSdkPart, isSupportedModel } from './language-model.js';
import { AI_SDK_LIMITS, type AiSdkLimits } from './limits.js';

/** Why a model request failed. */
export type AiSdkChatModelErrorKind = 'http_error' | 'timeout' | 'aborted' | 'network' | 'malformed_response';

/** Thrown by {@link AiSdkChatModel.complete}; `status` is set for HTTP failures, `tries` counts the requests made. */
export class AiSdkChatModelError extends BoughError {
  readonly kind: AiSdkChatModelErrorKind;
  readonly status: number | undefined;
  readonly retryable: boolean;
  tries = 1;
  constructor(
    kind: AiSdkChatModelErrorKind,
    message: string,
    options: { status?: number; retryable?: boolean; cause?: unknown } = {},
  ) {
    // The kind is also the stable `code` every bough error carries.
    super(message, { cause: options.cause, code: kind });
    this.kind = kind;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
  }
}

/** What {@link AiSdkChatModelOptions.onRetry} is told before the adapter waits and tries again. */
export interface RetryNotice {
  /** The retry about to start (1 for the first retry). */
  readonly retry: number;
  readonly delayMs: number;
  readonly error: AiSdkChatModelError;
  /** True when part of the failed answer was already passed to `onText` (the new try starts the answer over). */
  readonly discardedText: boolean;
}

/** Options of {@link AiSdkChatModel}; limits default to {@link DEFAULT_AI_SDK_LIMITS}. */
export interface AiSdkChatModelOptions extends Partial<Omit<AiSdkLimits, 'callTimeoutMs'>> {
  /** Stream the answer (default true); false makes one `doGenerate` request per turn. */
  readonly stream?: boolean;
  /** Called with each piece of answer text as it arrives (once with the whole text when not streaming). */
  readonly onText?: (delta: string) => void;
  /** Called before each retry. */
  readonly onRetry?: (notice: RetryNotice) => void;
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
  /** Extra request headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Provider-specific options, passed through as they are. */
  readonly providerOptions?: AiSdkCallOptions['providerOptions'];
}

/**
 * A core {@link ChatModel} over any AI SDK language model (provider specification v2, v3 or v4, so ai 5, 6 and 7):
 * a Branch, the agent loop, the
 * subagent and context compaction can then use any AI SDK provider. It streams, retries 429, 5xx and dropped
 * connections with exponential backoff (honouring `Retry-After`), bounds each try with a timeout and stops on abort.
 */
export class AiSdkChatModel implements ChatModel {
  readonly name: string;
  readonly #model: AiSdkLanguageModel;
  readonly #options: AiSdkChatModelOptions;
  readonly #limits: Omit<AiSdkLimits, 'callTimeoutMs'>;

  constructor(model: AiSdkLanguageModel, options: AiSdkChatModelOptions = {}) {
    if (!isSupportedModel(model)) {
      const said = typeof model === 'object' && model !== null ? (model as { specificationVersion?: unknown }) : {};
      const version =
        typeof said.specificationVersion === 'string' ? ` (this one says ${said.specificationVersion})` : '';
      throw new ConfigurationError(
        `AiSdkChatModel needs an AI SDK language model object of specification v2, v3 or v4 (ai 5, 6 or 7)${version}, for example createOpenAICompatible({...})("model-id"); a model id string would need the AI SDK gateway.`,
      );
    }
    // Validated and resolved once: a bad value throws a ConfigurationError naming the key.
    const { callTimeoutMs: _unused, ...limits } = AI_SDK_LIMITS.resolve(
      Object.fromEntries(
        Object.entries(options).filter(([key]) => key in AI_SDK_LIMITS.defaults && key !== 'callTimeoutMs'),
      ),
    );
    this.#model = model;
    this.#options = options;
    this.#limits = limits;
    this.name = model.modelId;
  }

  async complete(messages: readonly ChatMessage[], options: ChatOptions = {}): Promise<ChatCompletion> {
    const L = this.#limits;
    for (let attempt = 0; ; attempt++) {
      const emitted = { text: false };
      try {
        return await this.#once(messages, options, emitted);
      } catch (raw) {
        const error = this.#classify(raw, options.signal);
        error.tries = attempt + 1;
        if (!error.retryable || attempt >= L.maxRetries || options.signal?.aborted) throw error;
        const asked = retryAfterMs(isApiCallError(raw) ? raw.responseHeaders : undefined);
        if (asked !== undefined && asked > L.maxRetryAfterMs) {
          error.message += ` The server asked to wait ${Math.ceil(asked / 1000)} s before trying again, longer than maxRetryAfterMs (${L.maxRetryAfterMs} ms).`;
          throw error;
        }
        const delayMs = asked ?? backoffMs(attempt + 1, L.initialRetryDelayMs, L.maxRetryDelayMs);
        this.#options.onRetry?.({ retry: attempt + 1, delayMs, error, discardedText: emitted.text });
        try {
          await sleep(delayMs, undefined, options.signal ? { signal: options.signal } : {});
        } catch {
          throw new AiSdkChatModelError('aborted', 'The model call was aborted while waiting to retry.');
        }
      }
    }
  }

  async #once(
    messages: readonly ChatMessage[],
    options: ChatOptions,
    emitted: { text: boolean },
  ): Promise<ChatCompletion> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new TimeoutMarker()), this.#limits.requestTimeoutMs);
    const onAbort = () => controller.abort(options.signal?.reason);
    if (options.signal?.aborted) controller.abort(options.signal.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const o = this.#options;
    const call: AiSdkCallOptions = {
      prompt: toPrompt(messages),
      ...(options.tools && options.tools.length > 0 ? { tools: toFunctionTools(options.tools) } : {}),
      ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
      ...(o.maxOutputTokens !== undefined ? { maxOutputTokens: o.maxOutputTokens } : {}),
      ...(o.headers ? { headers: { ...o.headers } } : {}),
      ...(o.providerOptions ? { providerOptions: o.providerOptions } : {}),
      abortSignal: controller.signal,
    };
    try {
      // v2, v3 and v4 share the call options sent and the parts read here.
      const model = this.#model;
      if (o.stream === false) {
        const result = await model.doGenerate(call);
        return this.#fromContent(result.content, emitted);
      }
      const { stream } = await model.doStream(call);
      let text = '';
      const calls: ChatToolCall[] = [];
      for await (const part of stream as unknown as AsyncIterable<AiSdkPart>) {
        if (isPart(part, 'text-delta')) {
          text += part.delta;
          if (part.delta !== '') {
            emitted.text = true;
            o.onText?.(part.delta);
          }
        } else if (isPart(part, 'tool-call') && !part.providerExecuted) {
          calls.push(toolCall(part.toolCallId, part.toolName, part.input));
        } else if (isPart(part, 'error')) {
          throw part.error;
        }
      }
      if (controller.signal.aborted) throw controller.signal.reason;
      return { text, toolCalls: calls };
    } catch (error) {
      throw controller.signal.aborted ? (controller.signal.reason ?? error) : error;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  #fromContent(content: readonly AiSdkPart[], emitted: { text: boolean }): ChatCompletion {
    let text = '';
    const calls: ChatToolCall[] = [];
    for (const part of content) {
      if (isPart(part, 'text')) text += part.text;
      else if (isPart(part, 'tool-call') && !part.providerExecuted)
        calls.push(toolCall(part.toolCallId, part.toolName, part.input));
    }
    if (text !== '') {
      emitted.text = true;
      this.#options.onText?.(text);
    }
    return { text, toolCalls: calls };
  }

  #classify(error: unknown, signal: AbortSignal | undefined): AiSdkChatModelError {
    if (error instanceof AiSdkChatModelError) return error;
    const where = `the model server (${this.#model.provider}, model ${this.#model.modelId})`;
    if (error instanceof TimeoutMarker) {
      return new AiSdkChatModelError(
        'timeout',
        `${where} did not finish answering within ${this.#limits.requestTimeoutMs} ms.`,
      );
    }
    if (signal?.aborted) return new AiSdkChatModelError('aborted', 'The model call was aborted.', { cause: error });
    if (isApiCallError(error)) {
      const status = error.statusCode;
      if (status === undefined) {
        return new AiSdkChatModelError(
          'network',
          `Could not reach ${where} at ${endpoint(error.url)}: ${causeText(error)}`,
          { retryable: true, cause: error },
        );
      }
      if (status < 400) {
        // A successful status whose body could not be read to the end: the connection dropped mid-answer.
        return new AiSdkChatModelError(
          'network',
          `The connection to ${where} dropped mid-answer: ${causeText(error)}`,
          { retryable: true, cause: error },
        );
      }
      const retryable = status === 429 || status >= 500 || error.isRetryable;
      return new AiSdkChatModelError(
        'http_error',
        `${where} at ${endpoint(error.url)} answered HTTP ${status}: ${excerpt(error.responseBody ?? error.message)}`,
        { status, retryable, cause: error },
      );
    }
    const text = causeText(error);
    // A body cut off mid-way (the server or a proxy dropped the connection) is worth another try.
    if (error instanceof TypeError || /terminated|ECONNRESET|socket|other side closed/i.test(text)) {
      return new AiSdkChatModelError('network', `The connection to ${where} dropped: ${text}`, {
        retryable: true,
        cause: error,
      });
    }
    return new AiSdkChatModelError(
      'malformed_response',
      `${where} sent an answer that could not be read: ${excerpt(text)}`,
      { cause: error },
    );
  }
}

class TimeoutMarker extends Error {}

/** The fields of the parts read here, the same in specification v2, v3 and v4. */
interface ReadParts {
  text: { text: string };
  'text-delta': { delta: string };
  'tool-call': { toolCallId: string; toolName: string; input: string; providerExecuted?: boolean };
  error: { error: unknown };
}

function isPart<K extends keyof ReadParts>(part: AiSdkPart, type: K): part is AiSdkPart & ReadParts[K] {
  return part.type === type;
}

function toolCall(id: string, name: string, input: string): ChatToolCall {
  const parsed = parseToolArguments(input);
  return parsed.success
    ? { id, name, arguments: parsed.value }
    : { id, name, arguments: parsed.raw, argumentsError: parsed.error };
}

function endpoint(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return 'the configured URL';
  }
}

function causeText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const code =
    (cause as NodeJS.ErrnoException | undefined)?.code ?? (cause?.cause as NodeJS.ErrnoException | undefined)?.code;
  return `${cause?.message ?? error.message}${code && !(cause?.message ?? '').includes(code) ? ` (${code})` : ''}`;
}

const EXCERPT_CHARS = 300;

function excerpt(body: string): string {
  let text = body;
  try {
    const detail = (JSON.parse(body) as { error?: { message?: unknown } | string }).error;
    const message = typeof detail === 'string' ? detail : detail?.message;
    if (typeof message === 'string' && message !== '') text = message;
  } catch {
    // not JSON: quote the raw text
  }
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return '(empty body)';
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
}
