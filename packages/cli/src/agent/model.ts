import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { AiSdkChatModel, type AiSdkChatModelOptions } from '@bough/ai-sdk';
import { UsageError } from '../args.js';
import type { AgentConfig } from './config.js';

/** Checks the endpoint setting and names where a bad value came from. */
export function checkedBaseUrl(config: AgentConfig): string {
  const { value, from } = config.baseUrl;
  if (!value) {
    throw new UsageError(
      'agent needs an OpenAI-compatible endpoint: --base-url URL, $OPENAI_BASE_URL, or baseUrl in ~/.config/bough/config.json.',
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${from}: ${JSON.stringify(value)} is not a URL (try http://localhost:11434/v1).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${from}: the base URL must be http or https.`);
  return value;
}

/**
 * A server that ignores `stream: true` and answers with one JSON completion is still understood: the answer is
 * re-read as the equivalent event stream before the AI SDK parses it.
 */
export function jsonTolerantFetch(inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    const asked = typeof init?.body === 'string' && /"stream"\s*:\s*true/.test(init.body);
    const type = response.headers.get('content-type') ?? '';
    if (!asked || !response.ok || !type.includes('application/json')) return response;
    const text = await response.text();
    let body: { choices?: { message?: Record<string, unknown>; finish_reason?: unknown }[] } & Record<string, unknown>;
    try {
      body = JSON.parse(text);
    } catch {
      return new Response(text, { status: response.status, headers: response.headers });
    }
    const choice = body.choices?.[0];
    const message = choice?.message ?? {};
    const calls = Array.isArray(message.tool_calls)
      ? (message.tool_calls as Record<string, unknown>[]).map((call, index) => ({ index, ...call }))
      : undefined;
    const delta = { role: 'assistant', content: message.content ?? null, ...(calls ? { tool_calls: calls } : {}) };
    const chunk = {
      ...body,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, finish_reason: choice?.finish_reason ?? 'stop' }],
    };
    const headers = new Headers(response.headers);
    headers.set('content-type', 'text/event-stream');
    headers.delete('content-length');
    return new Response(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`, { status: response.status, headers });
  };
}

/** The CLI's model: `@ai-sdk/openai-compatible` behind bough's adapter, with the resolved limits. */
export function buildModel(
  config: AgentConfig,
  env: Readonly<Record<string, string | undefined>>,
  callbacks: Pick<AiSdkChatModelOptions, 'onText' | 'onRetry'>,
): AiSdkChatModel {
  const baseURL = checkedBaseUrl(config);
  const modelId = config.model.value;
  if (!modelId)
    throw new UsageError(
      'agent needs a model name: --model NAME, $BOUGH_MODEL, or model in ~/.config/bough/config.json.',
    );
  const provider = createOpenAICompatible({
    name: 'openai-compatible',
    baseURL,
    ...(config.apiKey.value ? { apiKey: config.apiKey.value } : {}),
    fetch: jsonTolerantFetch(),
  });
  const delay = env.BOUGH_MODEL_RETRY_DELAY_MS;
  const initialRetryDelayMs = delay !== undefined && /^\d+$/.test(delay) ? Number(delay) : undefined;
  return new AiSdkChatModel(provider(modelId), {
    stream: config.stream.value,
    ...(config.timeoutMs.value !== undefined ? { requestTimeoutMs: config.timeoutMs.value } : {}),
    ...(config.retries.value !== undefined ? { maxRetries: config.retries.value } : {}),
    ...(initialRetryDelayMs !== undefined
      ? { initialRetryDelayMs, maxRetryDelayMs: Math.max(initialRetryDelayMs, 1) * 8 }
      : {}),
    ...callbacks,
  });
}
