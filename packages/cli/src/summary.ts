/** A short readable rendering of one tool result: a headline and a few detail lines (never the whole JSON). */
export interface Summary {
  readonly ok: boolean;
  readonly headline: string;
  readonly details: readonly string[];
}

/** Most detail lines shown under one result; the rest is counted, not printed. */
const MAX_DETAIL_LINES = 6;
/** Longest single detail line or headline. */
const MAX_LINE_CHARS = 160;

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Cuts text to `max` characters with a marker saying how much was left out. */
export function clip(text: string, max = MAX_LINE_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}… (+${text.length - max} chars)` : text;
}

function lines(text: string, max = MAX_DETAIL_LINES): string[] {
  const all = text.replace(/\s+$/, '').split('\n');
  const shown = all.slice(0, max).map((line) => clip(line.replaceAll('\t', '  ')));
  if (all.length > max) shown.push(`… ${all.length - max} more line(s)`);
  return all.length === 1 && all[0] === '' ? [] : shown;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function items(list: readonly unknown[], render: (item: Obj) => string): string[] {
  const shown = list.slice(0, MAX_DETAIL_LINES).map((item) => clip(isObj(item) ? render(item) : String(item)));
  if (list.length > MAX_DETAIL_LINES) shown.push(`… ${list.length - MAX_DETAIL_LINES} more`);
  return shown;
}

function statusSummary(value: Obj): Summary {
  const status = String(value.status);
  const ok = status !== 'error' && status !== 'unavailable';
  const headline = `${status}: ${str(value.summary) ?? str(value.error) ?? ''}`.trim();
  if (Array.isArray(value.matches)) {
    const details = items(value.matches, (m) => `${m.file}:${m.line}  ${String(m.text ?? '').split('\n')[0]}`);
    return { ok, headline, details };
  }
  return { ok, headline, details: lines(str(value.text) ?? '') };
}

function contextSummary(value: Obj): Summary | undefined {
  const action = str(value.action);
  if (action === 'status' && num(value.active_messages) !== undefined) {
    return {
      ok: true,
      headline: `${value.active_messages} of ${value.total_messages} messages active, ~${value.active_tokens} tokens, ${value.evicted} evicted`,
      details: [],
    };
  }
  if (
    (action === 'evict' || action === 'restore' || action === 'evict_action_results') &&
    num(value.active) !== undefined
  ) {
    const moved = num(value.removed) ?? num(value.restored) ?? 0;
    const verb = action === 'restore' ? 'restored' : 'evicted';
    return {
      ok: true,
      headline: `${verb} ${plural(moved, 'message')}; now ${value.active} of ${value.total} active`,
      details: [],
    };
  }
  return undefined;
}

function messengerSummary(value: Obj): Summary | undefined {
  if (value.action === 'send' && Array.isArray(value.results)) {
    const sent = value.results.filter((r) => isObj(r) && r.ok).map((r) => String((r as Obj).to));
    return { ok: true, headline: `delivered to ${sent.join(', ') || 'nobody'}`, details: [] };
  }
  if (value.action === 'receive' && Array.isArray(value.messages)) {
    return {
      ok: true,
      headline: `${plural(value.messages.length, 'message')} received`,
      details: items(value.messages, (m) => `from ${m.from}: ${JSON.stringify(m.content)}`),
    };
  }
  return undefined;
}

function successSummary(tool: string, value: Obj): Summary {
  const where = str(value.relative) ?? str(value.path);
  if (typeof value.return_code === 'number') {
    const timedOut = value.timed_out ? ' (timed out)' : '';
    return { ok: true, headline: `exit ${value.return_code}${timedOut}`, details: lines(String(value.stdout ?? '')) };
  }
  if (typeof value.diff === 'string') {
    const count = num(value.replacements);
    const headline = `${value.action === 'write' ? 'wrote' : 'edited'} ${where}${count !== undefined ? `: ${plural(count, 'replacement')}` : ''}${num(value.first_line) ? ` at line ${value.first_line}` : ''}`;
    const changed = value.diff.split('\n').filter((line) => /^[-+](?![-+]{2} )/.test(line));
    return { ok: true, headline, details: lines(changed.join('\n'), 8) };
  }
  if (value.type === 'text' && typeof value.content === 'string' && num(value.total_lines) !== undefined) {
    const headline = `${where}: lines ${value.start_line}–${value.end_line} of ${value.total_lines}`;
    return { ok: true, headline, details: lines(value.content) };
  }
  if (Array.isArray(value.items)) {
    const headline = `${plural(value.items.length, 'item')} found`;
    const details = items(value.items, (i) =>
      `${i.file ? `${i.file}:` : ''}${i.line}  ${i.kind} ${i.name}  ${String(i.signature ?? '')}`.trim(),
    );
    return { ok: true, headline, details };
  }
  const special =
    tool === 'context' ? contextSummary(value) : tool === 'messenger' ? messengerSummary(value) : undefined;
  if (special) return special;
  if (typeof value.content === 'string' && num(value.count) !== undefined) {
    const more = value.truncated ? ` (showing ${value.shown})` : '';
    return { ok: true, headline: `${plural(value.count as number, 'result')}${more}`, details: lines(value.content) };
  }
  if (typeof value.content === 'string') return { ok: true, headline: where ?? 'ok', details: lines(value.content) };
  const { success: _success, ...rest } = value;
  return { ok: true, headline: clip(JSON.stringify(rest)), details: [] };
}

/** Summarises a tool output for people: typed failures, status results and the common success shapes. */
export function summarize(tool: string, output: unknown): Summary {
  if (!isObj(output)) return { ok: true, headline: clip(String(output)), details: [] };
  if (output.success === false) {
    return { ok: false, headline: `[${String(output.error_code)}] ${clip(String(output.error), 400)}`, details: [] };
  }
  if (typeof output.status === 'string' && (typeof output.summary === 'string' || output.error_code !== undefined)) {
    return statusSummary(output);
  }
  return successSummary(tool, output);
}

/** Renders a summary as indented text lines ending in a newline. */
export function renderSummary(summary: Summary, indent: string): string {
  const head = `${indent}${summary.ok ? '✓' : '✗'} ${summary.headline}\n`;
  return head + summary.details.map((line) => `${indent}  │ ${line}\n`).join('');
}
