/** A tool call proposed by a model; `arguments` is the parsed object, or the raw text when it was not valid JSON. */
export interface ChatToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
  /**
   * Set by a model adapter when the model's argument text was not valid JSON: what was wrong and where (for example
   * `Expected ',' or '}' at position 17`). The agent loop answers such a call with this message instead of running it.
   */
  readonly argumentsError?: string;
}

/** A chat message in the provider-neutral shape models consume. */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content: string;
  readonly toolCalls?: readonly ChatToolCall[];
  readonly toolCallId?: string;
  readonly name?: string;
}

/** A tool offered to a model: name, description and JSON Schema of its arguments. */
export interface ChatToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
}

/** One model turn: text (possibly empty) and zero or more tool calls. */
export interface ChatCompletion {
  readonly text: string;
  readonly toolCalls: readonly ChatToolCall[];
}

/** Options for one completion. */
export interface ChatOptions {
  readonly tools?: readonly ChatToolSpec[];
  readonly signal?: AbortSignal;
}

/** The small model interface used by context auto-compaction, the agent loop and subagents. */
export interface ChatModel {
  readonly name?: string;
  complete(messages: readonly ChatMessage[], options?: ChatOptions): Promise<ChatCompletion>;
}

/** One scripted answer: a completion, a function of the request, or an error to throw. */
export type ScriptStep =
  | ChatCompletion
  | Error
  | ((messages: readonly ChatMessage[], options: ChatOptions) => ChatCompletion | Promise<ChatCompletion>);

/** A deterministic {@link ChatModel} that replays a script, for tests and offline demos. */
export class ScriptedChatModel implements ChatModel {
  readonly name: string;
  /** Every request received, in order. */
  readonly requests: { messages: readonly ChatMessage[]; options: ChatOptions }[] = [];
  readonly #steps: ScriptStep[];

  constructor(steps: readonly ScriptStep[], name = 'scripted') {
    this.#steps = [...steps];
    this.name = name;
  }

  /** Steps not yet consumed. */
  get remaining(): number {
    return this.#steps.length;
  }

  async complete(messages: readonly ChatMessage[], options: ChatOptions = {}): Promise<ChatCompletion> {
    this.requests.push({ messages: [...messages], options });
    if (options.signal?.aborted) throw new Error('The model call was aborted.');
    const step = this.#steps.shift();
    if (step === undefined) throw new Error('The scripted model has no answers left.');
    if (step instanceof Error) throw step;
    return typeof step === 'function' ? step(messages, options) : step;
  }
}

/** Convenience for scripts: a completion with only text. */
export function textReply(text: string): ChatCompletion {
  return { text, toolCalls: [] };
}

/** Convenience for scripts: a completion that calls tools. */
export function toolCallReply(
  calls: readonly { name: string; arguments: unknown; id?: string }[],
  text = '',
): ChatCompletion {
  return {
    text,
    toolCalls: calls.map((call, index) => ({
      id: call.id ?? `call_${index}_${call.name}`,
      name: call.name,
      arguments: call.arguments,
    })),
  };
}
