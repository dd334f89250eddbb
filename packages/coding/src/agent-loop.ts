import { randomUUID } from 'node:crypto';
import {
  type ActionCall,
  type ActOptions,
  type Branch,
  branchToChatMessages,
  type ChatCompletion,
  type ChatModel,
  errorMessage,
  isActionRequest,
  TURN_CALLS_KEY,
  toolsToChatSpecs,
} from '@bough/core';
import { fail } from './errors.js';
import { DEFAULT_CODING_LIMITS } from './limits.js';

/** Options of {@link runAgent}. */
export interface RunAgentOptions {
  /** The model to drive; defaults to `branch.model`. */
  readonly model?: ChatModel;
  /** Model turns allowed (each turn is one model call); default 20. */
  readonly maxTurns?: number;
  readonly signal?: AbortSignal;
  /** 'sequential' (default) runs a turn's tool calls one after another, so a read can authorise a later edit. */
  readonly strategy?: 'concurrent' | 'sequential';
  /** Receives the progress of the running tool calls (each tool's own reports, and a heartbeat while one is silent). */
  readonly progress?: ActOptions['progress'];
}

/** How an agent run ended, and what it cost. */
export interface AgentResult {
  /** The model's final text (or the last text it produced before stopping). */
  readonly text: string;
  /** Model calls made. */
  readonly turns: number;
  /** Tool calls actually executed through `branch.act`. */
  readonly toolCalls: number;
  readonly stopped: 'answer' | 'max_turns' | 'aborted' | 'model_error';
  /** The model's error message when `stopped` is 'model_error'. */
  readonly error?: string;
}

/**
 * The plain agent loop: add the instruction, then alternate model turns and tool calls (through `branch.act`)
 * until the model answers without tool calls, the turn budget is spent, the signal aborts, or the model fails.
 */
export async function runAgent(
  branch: Branch,
  instruction: string,
  options: RunAgentOptions = {},
): Promise<AgentResult> {
  const model = options.model ?? branch.model;
  const maxTurns = Math.max(1, Math.floor(options.maxTurns ?? DEFAULT_CODING_LIMITS.agentMaxTurns));
  branch.addMessage({ role: 'user', content: instruction });
  if (!model)
    return {
      text: '',
      turns: 0,
      toolCalls: 0,
      stopped: 'model_error',
      error: 'No model is configured for this branch.',
    };
  const used = new Set<string>();
  for (const message of branch.messages) if (isActionRequest(message)) used.add(message.content.call_id);
  let turns = 0;
  let toolCalls = 0;
  let lastText = '';
  while (turns < maxTurns) {
    if (options.signal?.aborted) return { text: lastText, turns, toolCalls, stopped: 'aborted' };
    let reply: ChatCompletion;
    try {
      turns += 1;
      reply = await model.complete(branchToChatMessages(branch, branch.tools), {
        tools: toolsToChatSpecs(branch.tools),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.progress ? { progress: options.progress } : {}),
      });
    } catch (error) {
      if (options.signal?.aborted) return { text: lastText, turns, toolCalls, stopped: 'aborted' };
      return { text: lastText, turns, toolCalls, stopped: 'model_error', error: errorMessage(error) };
    }
    const text = typeof reply.text === 'string' ? reply.text : '';
    const calls = reply.toolCalls ?? [];
    if (text !== '') lastText = text;
    if (calls.length === 0) {
      if (text !== '') branch.addMessage({ role: 'assistant', content: text });
      return { text, turns, toolCalls, stopped: 'answer' };
    }
    // Call ids must be unique within a branch: file-state evidence and isCallActive() are keyed by them.
    const batch: (ActionCall & { id: string; argumentsError?: string })[] = calls.map((call) => {
      const id = call.id && !used.has(call.id) ? call.id : randomUUID();
      used.add(id);
      return {
        name: call.name,
        arguments: call.arguments,
        id,
        ...(call.argumentsError ? { argumentsError: call.argumentsError } : {}),
      };
    });
    // The turn's text and its calls are one assistant message holding both, so the branch (and a session saved from
    // it) keeps the turn whole and every request renders it as one message (see TURN_CALLS_KEY), even when the calls
    // run one after another.
    const turnCalls = batch.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments ?? {} }));
    branch.addMessage({ role: 'assistant', content: text, metadata: { [TURN_CALLS_KEY]: turnCalls } });
    for (const call of batch.filter((c) => c.argumentsError)) recordMalformed(branch, call);
    const runnable = batch.filter((call) => !call.argumentsError);
    if (runnable.length > 0) {
      await branch.act(runnable, {
        strategy: options.strategy ?? 'sequential',
        ...(options.signal ? { signal: options.signal } : {}),
      });
    }
    toolCalls += batch.length;
  }
  return { text: lastText, turns, toolCalls, stopped: options.signal?.aborted ? 'aborted' : 'max_turns' };
}

/** Answers a call whose argument text was not JSON without running it: the model reads what was wrong and where. */
function recordMalformed(branch: Branch, call: ActionCall & { id: string; argumentsError?: string }): void {
  branch.addMessage({
    role: 'action_request',
    content: { function: call.name, arguments: call.arguments ?? {}, call_id: call.id },
  });
  const output = fail(
    'invalid_request',
    `The arguments of this ${call.name} call are not valid JSON (${call.argumentsError}), so it did not run. ` +
      'Send the call again with the arguments as one JSON object.',
  );
  branch.addMessage({
    role: 'action_response',
    content: { function: call.name, arguments: call.arguments ?? {}, output, call_id: call.id, status: 'failed' },
  });
}
