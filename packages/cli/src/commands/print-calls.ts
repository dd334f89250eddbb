import {
  type ActionRequestContent,
  type ActionResponseContent,
  type Branch,
  clipLine,
  toolOutputSummary,
} from '@bough/core';
import type { CliIO } from '../output.js';
import { renderSummary } from '../summary.js';

/** How {@link printCalls} writes: JSON lines for programs, or a readable trace with optional notes per call id. */
export interface PrintCallsOptions {
  /** One JSON object per finished call on stdout (`event: "call"`, the branch name and the action_response content). */
  readonly json?: boolean;
  /** Indentation put before every line. */
  readonly prefix?: string;
  /** A sentence shown above a call, keyed by call id (the demo explains each step this way). */
  readonly notes?: ReadonlyMap<string, string>;
}

/** Prints each tool call on a branch as it happens (request line, then a short result); returns an unsubscribe. */
export function printCalls(branch: Branch, io: CliIO, options: PrintCallsOptions = {}): () => void {
  const prefix = options.prefix ?? '';
  return branch.subscribe((event) => {
    if (event.type !== 'message') return;
    const { message } = event;
    if (options.json) {
      if (message.role === 'action_response') {
        const line = { event: 'call', branch: branch.name ?? null, ...(message.content as ActionResponseContent) };
        io.stdout(`${JSON.stringify(line)}\n`);
      }
      return;
    }
    if (message.role === 'action_request') {
      const content = message.content as ActionRequestContent;
      const note = options.notes?.get(content.call_id);
      if (note) io.stdout(`\n${prefix}${note}\n`);
      io.stdout(`${prefix}→ ${content.function} ${clipLine(JSON.stringify(content.arguments), 160)}\n`);
    } else if (message.role === 'action_response') {
      const content = message.content as ActionResponseContent;
      io.stdout(renderSummary(toolOutputSummary(branch.registry.get(content.function), content.output), `${prefix}  `));
    }
  });
}
