import type { RetryNotice } from '@bough/ai-sdk';
import type { AgentResult } from '@bough/coding';
import {
  type ActionRequestContent,
  type ActionResponseContent,
  type Branch,
  clipLine,
  type ToolProgress,
  toolOutputSummary,
  turnCallIds,
} from '@bough/core';
import type { CliIO } from '../output.js';
import { renderSummary } from '../summary.js';
import { StatusLine } from './status-line.js';

/**
 * Where `bough agent` writes. Readable mode: the live trace (streamed text, each call and a short result, retries,
 * errors) on stderr, the final answer on stdout. `--json`: one JSON object per line on stdout — `call`, `result`,
 * `text`, `error` and `final` events — and nothing but prompts on stderr.
 */
export class AgentOutput {
  readonly #io: CliIO;
  readonly #json: boolean;
  #midLine = false;
  #streamedFinal = '';
  /** The live line while the model thinks or a tool runs (readable mode on a terminal only). */
  readonly #status: StatusLine;

  constructor(io: CliIO, json: boolean) {
    this.#io = io;
    this.#json = json;
    this.#status = new StatusLine(json ? { ...io, isTTY: false } : io);
  }

  /** The model is being asked: `thinking` until its first word or call. */
  thinking(): void {
    if (!this.#midLine) this.#status.show('thinking');
  }

  /** Progress of the running tool call, shown on the live line. */
  progress(update: ToolProgress): void {
    this.#status.progress(update);
  }

  /** Wipes the live line (before a prompt is written to the terminal). */
  pause(): void {
    this.#status.clear();
  }

  /** Shows the live line again after a prompt (the call it was about goes on). */
  resume(): void {
    this.#status.resume();
  }

  #event(event: Record<string, unknown>): void {
    this.#io.stdout(`${JSON.stringify(event)}\n`);
  }

  #trace(text: string): void {
    this.#status.clear();
    if (this.#midLine) this.#io.stderr('\n');
    this.#midLine = false;
    this.#io.stderr(text);
  }

  /** A piece of model text as it streams (readable mode only; JSON mode reports whole turns as `text`). */
  text(delta: string): void {
    if (this.#json) return;
    this.#status.clear();
    this.#io.stderr(delta);
    this.#streamedFinal += delta;
    this.#midLine = !delta.endsWith('\n');
  }

  retry(notice: RetryNotice, maxRetries: number | undefined): void {
    const message = notice.error.message;
    if (this.#json) {
      this.#event({
        event: 'error',
        kind: notice.error.kind,
        message,
        retrying: true,
        retry: notice.retry,
        delay_ms: notice.delayMs,
      });
      return;
    }
    this.#streamedFinal = '';
    const of = maxRetries !== undefined ? `/${maxRetries}` : '';
    this.#trace(
      `bough: ${message} — retry ${notice.retry}${of} in ${notice.delayMs} ms${notice.discardedText ? ' (the answer starts over)' : ''}\n`,
    );
  }

  /** Follows the branch: each call and its result, and each turn's text in JSON mode. Returns an unsubscribe. */
  follow(branch: Branch): () => void {
    return branch.subscribe((event) => {
      if (event.type !== 'message') return;
      const { message } = event;
      if (message.role === 'assistant') {
        if (this.#json && typeof message.content === 'string' && message.content !== '') {
          const calls = turnCallIds(message);
          this.#event({ event: 'text', text: message.content, ...(calls ? { call_ids: calls } : {}) });
        }
        // A turn that goes on to tool calls was trace, not the final answer.
        if (turnCallIds(message)) this.#streamedFinal = '';
      } else if (message.role === 'action_request') {
        const content = message.content as ActionRequestContent;
        if (this.#json)
          this.#event({
            event: 'call',
            call_id: content.call_id,
            function: content.function,
            arguments: content.arguments,
          });
        else {
          this.#trace(`→ ${content.function} ${clipLine(JSON.stringify(content.arguments) ?? '', 160)}\n`);
          this.#status.show(content.function);
        }
      } else if (message.role === 'action_response') {
        const content = message.content as ActionResponseContent;
        if (this.#json) {
          this.#event({
            event: 'result',
            call_id: content.call_id,
            function: content.function,
            status: content.status,
            output: content.output,
          });
        } else {
          this.#trace(renderSummary(toolOutputSummary(branch.registry.get(content.function), content.output), '  '));
          // The results go back to the model next.
          this.thinking();
        }
      }
    });
  }

  /** The end of the run: the answer on stdout (not repeated when it already streamed to the same terminal). */
  final(result: AgentResult, extra: Record<string, unknown> = {}): void {
    if (this.#json) {
      if (result.error) this.#event({ event: 'error', kind: 'model_error', message: result.error, retrying: false });
      this.#event({ event: 'final', ...result, ...extra });
      return;
    }
    if (result.error) this.#trace(`bough: model error: ${result.error}\n`);
    const shownLive =
      this.#io.isTTY && this.#io.stdoutIsTTY && result.text !== '' && this.#streamedFinal === result.text;
    this.#trace('');
    if (result.text !== '' && !shownLive) this.#io.stdout(`${result.text}\n`);
    const why = result.stopped === 'answer' ? 'answered' : `stopped: ${result.stopped}`;
    this.#trace(`(${result.turns} model turns, ${result.toolCalls} tool calls, ${why})\n`);
  }
}
