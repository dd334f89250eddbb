import { detailItems, isRecord, plural, type ToolSummaryParts } from '@bough/core';

// How the messenger summarises its answers for people (see core's ToolRendering); models read the generic text.

/** Who a `send` reached, or how many messages `receive` brought (the first few below). */
export function messengerSummary(output: unknown): ToolSummaryParts | undefined {
  if (!isRecord(output)) return undefined;
  if (output.action === 'send' && Array.isArray(output.results)) {
    const sent = output.results.filter(isRecord).flatMap((r) => (r.ok ? [String(r.to)] : []));
    return { headline: `delivered to ${sent.join(', ') || 'nobody'}` };
  }
  if (output.action === 'receive' && Array.isArray(output.messages)) {
    const count = output.messages.length;
    return {
      headline: `${plural(count, 'message')} received`,
      details: detailItems(output.messages, (m) => `from ${m.from}: ${JSON.stringify(m.content)}`),
    };
  }
  return undefined;
}
