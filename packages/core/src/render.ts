import { isToolFailure, type ToolFailure } from './failure.js';

/**
 * How a tool presents its own output: the text a model reads (as vercel/ai's `toModelOutput`) and a short summary
 * for people. Hosts (MCP, the CLI, agents) call {@link toolOutputText} and {@link toolOutputSummary}, which use these
 * hooks and fall back to a generic rendering, so no host needs to know any tool's fields.
 */
export interface ToolRendering<RES = unknown> {
  /**
   * The text a model reads for a successful output (failures are rendered by core, the same for every tool).
   * Return undefined for a shape the tool leaves to the generic rendering.
   */
  readonly toModelText?: (output: RES) => string | undefined;
  /** A one-line headline and a few detail lines for people; undefined leaves it to the generic summary. */
  readonly summarize?: (output: RES) => ToolSummaryParts | undefined;
  /**
   * The text a model reads for a failure, for a tool that answers in another harness's documented wording (the
   * dialect tools); undefined, or no hook, leaves it to core's `Error (code): message` rendering.
   */
  readonly failureText?: (failure: ToolFailure) => string | undefined;
}

/** What a tool's `summarize` returns: one headline and optional detail lines (see {@link detailLines}). */
export interface ToolSummaryParts {
  readonly headline: string;
  readonly details?: readonly string[];
}

/** A summary as hosts show it: whether the output is a success, its headline and detail lines. */
export interface ToolSummary {
  readonly ok: boolean;
  readonly headline: string;
  readonly details: readonly string[];
}

/** Most detail lines a summary shows by default; the rest is counted, not listed. */
const DETAIL_LINES = 6;
/** Longest headline or detail line. */
const LINE_CHARS = 160;
/** Fields of a failure its first line already shows. */
const FAILURE_SHOWN = new Set(['success', 'error', 'error_code']);

/** An object whose fields are not known yet, as a tool's output is to the code that renders it. */
export type UnknownRecord = Record<string, unknown>;

/** Whether `value` is an object whose fields can be read (not null, not an array). */
export function isRecord(value: unknown): value is UnknownRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` when it is a string, otherwise undefined: reads an optional text field of an output. */
export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A count and its noun, with an `s` unless the count is 1: `plural(2, 'file')` is `2 files`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Non-empty parts joined by newlines. */
export function joinLines(parts: readonly (string | undefined)[]): string {
  let text = '';
  for (const part of parts) if (part) text = text === '' ? part : `${text}\n${part}`;
  return text;
}

/** A value as text: strings as they are, anything else as compact JSON. */
export function compactText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** `file:line:col` of a finding (diagnostic, match, symbol); the file and column when present. */
export function locationText(item: {
  readonly file?: unknown;
  readonly line?: unknown;
  readonly col?: unknown;
}): string {
  const file = typeof item.file === 'string' ? item.file : undefined;
  const line = `${String(item.line)}${item.col !== undefined ? `:${String(item.col)}` : ''}`;
  return file ? `${file}:${line}` : line;
}

/** Cuts text to `max` characters with a marker saying how much was left out. */
export function clipLine(text: string, max = LINE_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}… (+${text.length - max} chars)` : text;
}

/** The first `max` lines of a text as summary details (tabs widened, lines clipped), counting the rest. */
export function detailLines(text: string, max = DETAIL_LINES): string[] {
  const all = text.replace(/\s+$/, '').split('\n');
  const shown = all.slice(0, max).map((line) => clipLine(line.replaceAll('\t', '  ')));
  if (all.length > max) shown.push(`… ${all.length - max} more line(s)`);
  return all.length === 1 && all[0] === '' ? [] : shown;
}

/** The first few entries of a list as summary details, each rendered and clipped, counting the rest. */
export function detailItems(list: readonly unknown[], render: (item: UnknownRecord) => string): string[] {
  const shown = list.slice(0, DETAIL_LINES).map((item) => clipLine(isRecord(item) ? render(item) : String(item)));
  if (list.length > DETAIL_LINES) shown.push(`… ${list.length - DETAIL_LINES} more`);
  return shown;
}

/** `Error (code): message`, then the failure's extra fields (candidates, matching lines, …) one per line. */
function failureText(output: UnknownRecord): string {
  const extras = Object.entries(output)
    .filter(([key, value]) => !FAILURE_SHOWN.has(key) && value !== undefined)
    .map(([key, value]) => `${key}: ${compactText(value)}`);
  return joinLines([`Error (${String(output.error_code)}): ${String(output.error)}`, ...extras]);
}

/**
 * The text a model reads for a tool's output: a failure as the tool's `failureText` words it, else its code, message
 * and extra fields; otherwise the tool's own `toModelText`; otherwise a `message` field or compact JSON.
 */
export function toolOutputText<RES>(tool: ToolRendering<RES> | undefined, output: unknown): string {
  if (typeof output === 'string') return output;
  if (!isRecord(output)) return compactText(output ?? null);
  if (isToolFailure(output) && typeof output.error === 'string') {
    return tool?.failureText?.(output as ToolFailure) ?? failureText(output);
  }
  const own = tool?.toModelText?.(output as RES);
  if (own !== undefined) return own;
  if (typeof output.message === 'string') return output.message;
  return compactText(output);
}

/**
 * A short summary of a tool's output for people: a failure's code and message; otherwise the tool's own
 * `summarize`; otherwise the `content` field's first lines, or the output as clipped JSON.
 */
export function toolOutputSummary<RES>(tool: ToolRendering<RES> | undefined, output: unknown): ToolSummary {
  if (!isRecord(output)) return { ok: true, headline: clipLine(String(output)), details: [] };
  if (isToolFailure(output)) {
    return { ok: false, headline: `[${output.error_code}] ${clipLine(String(output.error), 400)}`, details: [] };
  }
  const own = tool?.summarize?.(output as RES);
  if (own) return { ok: true, headline: own.headline, details: own.details ?? [] };
  const where = typeof output.relative === 'string' ? output.relative : output.path;
  if (typeof output.content === 'string') {
    return { ok: true, headline: typeof where === 'string' ? where : 'ok', details: detailLines(output.content) };
  }
  const { success: _success, ...rest } = output;
  return { ok: true, headline: clipLine(JSON.stringify(rest)), details: [] };
}
