import type { ChatCompletion, ChatMessage, ChatModel, ChatOptions, ChatToolCall, ChatToolSpec } from './chat-model.js';

/** How long one completion may take by default; local models on a CPU can be slow, so this is generous. */
export const DEFAULT_OPENAI_TIMEOUT_MS = 120_000;
/**
 * Most bytes of one response body read by default. A chat completion is a few KB to a few hundred KB; a server that
 * answers with more (or streams without end) is broken, and reading it all would only exhaust memory.
 */
export const DEFAULT_OPENAI_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** Most bytes of an error body read; only an excerpt of it is ever quoted. */
const ERROR_BODY_BYTES = 64 * 1024;
/** Most characters of an error body quoted in an error message; enough to read the cause, short enough for a log. */
const ERROR_EXCERPT_CHARS = 300;

/** Options for {@link OpenAIChatModel}. */
export interface OpenAIChatModelOptions {
  /** API root that `/chat/completions` is appended to, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. */
  readonly baseUrl: string;
  readonly model: string;
  /** Sent as `Authorization: Bearer …`; never included in error messages. */
  readonly apiKey?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Milliseconds before a completion is abandoned (default {@link DEFAULT_OPENAI_TIMEOUT_MS}). */
  readonly timeoutMs?: number;
  /** Bytes of response body read before giving up with `too_large` (default {@link DEFAULT_OPENAI_MAX_RESPONSE_BYTES}). */
  readonly maxResponseBytes?: number;
  /** A fetch implementation (defaults to the global one), e.g. to add a proxy or record requests. */
  readonly fetch?: typeof fetch;
  readonly temperature?: number;
}

/** Why a completion failed: HTTP status, timeout, caller abort, network, a response we could not read, or one too big. */
export type OpenAIChatModelErrorKind =
  | 'http_error'
  | 'timeout'
  | 'aborted'
  | 'network'
  | 'malformed_response'
  | 'too_large';

/** Thrown by {@link OpenAIChatModel.complete}; `status` is set for HTTP failures. */
export class OpenAIChatModelError extends Error {
  override readonly name = 'OpenAIChatModelError';
  readonly kind: OpenAIChatModelErrorKind;
  readonly status: number | undefined;
  constructor(kind: OpenAIChatModelErrorKind, message: string, status?: number) {
    super(message);
    this.kind = kind;
    this.status = status;
  }
}

type WireToolCall = { id?: unknown; type?: unknown; function?: { name?: unknown; arguments?: unknown } };

function wireMessage(message: ChatMessage): Record<string, unknown> {
  if (message.role === 'tool')
    return { role: 'tool', tool_call_id: message.toolCallId ?? '', content: message.content };
  if (message.role === 'assistant' && message.toolCalls && message.toolCalls.length > 0) {
    return {
      role: 'assistant',
      content: message.content === '' ? null : message.content,
      tool_calls: message.toolCalls.map((call) => ({
        id: call.id,
        type: 'function',
        function: {
          name: call.name,
          arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
        },
      })),
    };
  }
  return { role: message.role, content: message.content, ...(message.name ? { name: message.name } : {}) };
}

function wireTool(tool: ChatToolSpec): Record<string, unknown> {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

function parseArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw);
  } catch {
    // Kept as text: the executor turns it into an invalid_request failure the model can read and fix.
    return raw;
  }
}

/**
 * Reads a body as UTF-8 text, stopping (and cancelling the stream) once it passes `maxBytes`: then it throws
 * `too_large`, or with `cut` returns what it read so far.
 */
async function readCapped(response: Response, maxBytes: number, where: string, cut = false): Promise<string> {
  const tooLarge = () =>
    new OpenAIChatModelError(
      'too_large',
      `The model server at ${where} sent more than ${maxBytes} bytes in one answer; it was cut off. Check the endpoint, or raise maxResponseBytes.`,
      response.status,
    );
  const declared = Number(response.headers.get('content-length'));
  if (!cut && Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      if (cut) return text + decoder.decode(value.subarray(0, value.byteLength - (size - maxBytes)));
      throw tooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function readCompletion(body: unknown): ChatCompletion {
  const message = (body as { choices?: { message?: unknown }[] } | null)?.choices?.[0]?.message as
    | { content?: unknown; tool_calls?: unknown }
    | undefined;
  if (!message || typeof message !== 'object') {
    throw new OpenAIChatModelError('malformed_response', 'The model server answered without choices[0].message.');
  }
  const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as WireToolCall[]) : [];
  const toolCalls: ChatToolCall[] = calls.map((call, index) => {
    const name = call.function?.name;
    if (typeof name !== 'string' || name === '') {
      throw new OpenAIChatModelError('malformed_response', `Tool call ${index} in the model's answer has no name.`);
    }
    const id = typeof call.id === 'string' && call.id !== '' ? call.id : `call_${index}_${name}`;
    return { id, name, arguments: parseArguments(call.function?.arguments) };
  });
  const text = typeof message.content === 'string' ? message.content : '';
  return { text, toolCalls };
}

/**
 * A {@link ChatModel} for any OpenAI-compatible `/chat/completions` endpoint (OpenAI, Ollama, vLLM, llama.cpp server,
 * LM Studio), using only `fetch`. Failures throw {@link OpenAIChatModelError} with a message that never contains the key.
 */
export class OpenAIChatModel implements ChatModel {
  readonly name: string;
  readonly #options: OpenAIChatModelOptions;
  readonly #url: string;

  constructor(options: OpenAIChatModelOptions) {
    this.#options = options;
    this.#url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.name = options.model;
  }

  async complete(messages: readonly ChatMessage[], options: ChatOptions = {}): Promise<ChatCompletion> {
    const tools = options.tools ?? [];
    const body = {
      model: this.#options.model,
      messages: messages.map(wireMessage),
      ...(tools.length > 0 ? { tools: tools.map(wireTool) } : {}),
      ...(this.#options.temperature !== undefined ? { temperature: this.#options.temperature } : {}),
      stream: false,
    };
    const timeoutMs = this.#options.timeoutMs ?? DEFAULT_OPENAI_TIMEOUT_MS;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    if (options.signal?.aborted) controller.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await (this.#options.fetch ?? fetch)(this.#url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...this.#options.headers,
          ...(this.#options.apiKey ? { authorization: `Bearer ${this.#options.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      if (!response.ok) {
        // Only the start of an error body is quoted, so read no more than that (an unreadable body reads as empty).
        const text = await readCapped(response, ERROR_BODY_BYTES, this.#where(), true).catch(() => '');
        throw new OpenAIChatModelError(
          'http_error',
          `The model server at ${this.#where()} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}: ${this.#excerpt(text)}`,
          response.status,
        );
      }
      const text = await readCapped(
        response,
        this.#options.maxResponseBytes ?? DEFAULT_OPENAI_MAX_RESPONSE_BYTES,
        this.#where(),
      );
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new OpenAIChatModelError(
          'malformed_response',
          `The model server answered with non-JSON: ${this.#excerpt(text)}`,
        );
      }
      return readCompletion(json);
    } catch (error) {
      if (error instanceof OpenAIChatModelError) throw error;
      if (timedOut) {
        throw new OpenAIChatModelError(
          'timeout',
          `The model server at ${this.#where()} did not answer within ${timeoutMs} ms.`,
        );
      }
      if (options.signal?.aborted) throw new OpenAIChatModelError('aborted', 'The model call was aborted.');
      const cause = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : '';
      throw new OpenAIChatModelError(
        'network',
        `Could not reach the model server at ${this.#where()}: ${this.#redact(cause)}`,
      );
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** The endpoint without credentials or query string, safe to print. */
  #where(): string {
    try {
      const url = new URL(this.#url);
      return `${url.origin}${url.pathname}`;
    } catch {
      return 'the configured URL';
    }
  }

  #redact(text: string): string {
    const key = this.#options.apiKey;
    return key ? text.split(key).join('[redacted]') : text;
  }

  #excerpt(body: string): string {
    let text = body;
    try {
      const detail = (JSON.parse(body) as { error?: { message?: unknown } | string }).error;
      const message = typeof detail === 'string' ? detail : detail?.message;
      if (typeof message === 'string' && message !== '') text = message;
    } catch {
      // not JSON: quote the raw body
    }
    const flat = this.#redact(text).replace(/\s+/g, ' ').trim();
    if (flat === '') return '(empty body)';
    return flat.length > ERROR_EXCERPT_CHARS ? `${flat.slice(0, ERROR_EXCERPT_CHARS)}…` : flat;
  }
}
