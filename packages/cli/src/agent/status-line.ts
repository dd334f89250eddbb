import type { ToolProgress } from '@bough/core';
import { type CliIO, FRAMES } from '../output.js';
/**
 * The one live line `bough agent` keeps at the bottom of stderr while nothing else is printed: `thinking` while it
 * waits for the model, the tool's name while a call runs (with the tool's latest progress), each with the seconds it
 * has lasted. Drawn at once, then redrawn ten times a second; `clear` wipes it before anything else is written.
 * Only on a terminal: anywhere else it writes nothing. (`progressReporter` in output.ts draws a tool's spinner for
 * `bough call`; this one also shows elapsed time and is started and cleared around the agent's own output.)
 */
export class StatusLine {
  readonly #io: CliIO;
  #timer: NodeJS.Timeout | undefined;
  #label = '';
  #detail = '';
  #since = 0;
  #frame = 0;

  constructor(io: CliIO) {
    this.#io = io;
  }

  /** Shows `label` from now on (replacing what was shown). */
  show(label: string): void {
    if (!this.#io.isTTY) return;
    this.clear();
    this.#label = label;
    this.#detail = '';
    this.#since = Date.now();
    this.#draw();
    this.#timer = setInterval(() => this.#draw(), 100);
    this.#timer.unref();
  }

  /** The running tool's latest report, shown after its name. */
  progress(update: ToolProgress): void {
    if (!this.#timer) return;
    const count =
      update.completed !== undefined
        ? ` ${update.completed}${update.total !== undefined ? `/${update.total}` : ''}`
        : '';
    // The heartbeat only repeats the elapsed time the line already shows.
    const message = update.heartbeat ? '' : (update.message ?? '');
    this.#detail = `${message}${count}`.trim();
  }

  /** Shows the last label again, its time counted afresh (after a prompt wiped it). */
  resume(): void {
    if (this.#label && !this.#timer) this.show(this.#label);
  }

  /** Wipes the line; nothing is shown until the next `show` or `resume`. */
  clear(): void {
    if (!this.#timer) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#io.stderr('\r\x1b[2K');
  }

  #draw(): void {
    const seconds = Math.floor((Date.now() - this.#since) / 1000);
    const detail = this.#detail ? `: ${this.#detail}` : '';
    this.#io.stderr(`\r\x1b[2K${FRAMES[this.#frame++ % FRAMES.length]} ${this.#label} ${seconds} s${detail}`);
  }
}
