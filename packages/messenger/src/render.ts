import { detailItems, type ToolSummaryParts } from '@bough/core';

// How the messenger summarises its answers for people (see core's ToolRendering); models read the generic text.

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Who a `send` reached, or how many messages `receive` brought (the first few below). */
export function messengerSummary(output: unknown): ToolSummaryParts | undefined {
  if (!isObj(output)) return undefined;
  if (output.action === 'send' && Array.isArray(output.results)) {
    const sent = output.results.filter((r) => isObj(r) && r.ok).map((r) => String((r as Obj).to));
    return { headline: `delivered to ${sent.join(', ') || 'nobody'}` };
  }
  if (output.action === 'receive' && Array.isArray(output.messages)) {
    const count = output.messages.length;
    return {
      headline: `${count} message${count === 1 ? '' : 's'} received`,
      details: detailItems(output.messages, (m) => `from ${m.from}: ${JSON.stringify(m.content)}`),
    };
  }
  return undefined;
}
