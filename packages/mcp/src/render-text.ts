/**
 * The text a model reads for a tool's output. The full response travels in `structuredContent`; the text carries only
 * what a model acts on: reader rows, grep lines, an edit's diff, command output, or a failure's message (which names
 * the next step). Shapes are recognised by their fields, so any tool returning the same shapes renders the same way.
 */

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** Fields of a failure that the rendering already shows, or that a model cannot act on. */
const FAILURE_SHOWN = new Set(['success', 'error', 'error_code']);

/** A window notice that only says the whole file is shown adds nothing to the rows themselves. */
const SAYS_NOTHING = /^Showing all \d+ lines\.$/;

function joinParts(parts: readonly (string | undefined)[]): string {
  let text = '';
  for (const part of parts) if (part) text = text === '' ? part : `${text}\n${part}`;
  return text;
}

function compact(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** `error_code: message`, then any extra fields (candidates, matching lines, …) one per line. */
function failureText(output: Obj): string {
  const extras = Object.entries(output)
    .filter(([key, value]) => !FAILURE_SHOWN.has(key) && value !== undefined)
    .map(([key, value]) => `${key}: ${compact(value)}`);
  return joinParts([`Error (${String(output.error_code)}): ${String(output.error)}`, ...extras]);
}

function readerText(output: Obj): string {
  const notice = str(output.notice);
  return joinParts([str(output.content), notice && !SAYS_NOTHING.test(notice) ? `[${notice}]` : undefined]);
}

function statText(output: Obj): string {
  const fields = ['relative', 'type', 'size_bytes', 'lines', 'mtime', 'mode', 'link_target'];
  return fields
    .filter((key) => output[key] !== undefined)
    .map((key) => `${key === 'relative' ? 'path' : key}: ${compact(output[key])}`)
    .join('\n');
}

function manyText(results: readonly unknown[]): string {
  return results
    .map((entry) => {
      if (!isObj(entry)) return compact(entry);
      const inner = isObj(entry.result) ? entry.result : entry;
      const name = str(entry.path) ?? str(inner.relative) ?? '?';
      return `== ${name} ==\n${renderOutput(inner)}`;
    })
    .join('\n\n');
}

function bashText(output: Obj): string {
  const code = num(output.return_code);
  const status =
    output.timed_out === true
      ? `[timed out after ${String(output.timeout_ms)} ms]`
      : typeof output.signal === 'string'
        ? `[ended by ${output.signal}]`
        : code !== 0
          ? `[exit code ${String(code)}]`
          : undefined;
  const stderr = str(output.stderr);
  const text = joinParts([
    str(output.stdout)?.replace(/\n$/, ''),
    stderr ? `[stderr]\n${stderr.replace(/\n$/, '')}` : undefined,
    status,
    str(output.note) ? `[${str(output.note)}]` : undefined,
  ]);
  return text || '(no output)';
}

function location(item: Obj): string {
  const file = str(item.file);
  const line = `${String(item.line)}${item.col !== undefined ? `:${String(item.col)}` : ''}`;
  return file ? `${file}:${line}` : line;
}

function diagnosticsText(output: Obj, items: readonly unknown[]): string {
  const lines = items.filter(isObj).map((d) => {
    const code = str(d.code) ? ` ${str(d.code)}` : '';
    return `${location(d)} ${String(d.severity)}${code}: ${String(d.message)}`;
  });
  return joinParts([...lines, str(output.summary)]);
}

function matchesText(output: Obj, items: readonly unknown[]): string {
  const lines = items.filter(isObj).map((m) => `${location(m)}: ${String(m.text)}`);
  return joinParts([...lines, str(output.summary)]);
}

function navText(output: Obj, items: readonly unknown[]): string {
  const lines = items.filter(isObj).map((item) => {
    const signature = str(item.signature) ? ` ${str(item.signature)}` : '';
    return `${location(item)} ${String(item.kind)} ${String(item.name)}${signature}`;
  });
  if (lines.length === 0 && !str(output.note)) lines.push('No results.');
  return joinParts([...lines, output.truncated === true ? '[more results were cut]' : undefined, str(output.note)]);
}

function editorText(output: Obj): string {
  const diff = str(output.diff);
  const message = str(output.message);
  if (diff) return joinParts([message, diff, output.diff_truncated === true ? '[diff cut]' : undefined]);
  return message ?? compact(output);
}

/** The model-facing text of any tool output. */
export function renderOutput(output: unknown): string {
  if (typeof output === 'string') return output;
  if (!isObj(output)) return compact(output ?? null);
  if (output.success === false && typeof output.error === 'string') return failureText(output);
  if (output.status === 'error' || output.status === 'unavailable') {
    return joinParts([`Error (${String(output.error_code ?? output.status)}): ${String(output.summary ?? '')}`]);
  }
  if (Array.isArray(output.results)) return manyText(output.results);
  if (output.type === 'text' && typeof output.content === 'string') return readerText(output);
  if (output.type === 'directory' && typeof output.content === 'string') return readerText(output);
  if (typeof output.mtime === 'string' && typeof output.type === 'string') return statText(output);
  if (typeof output.stdout === 'string' && typeof output.stderr === 'string') return bashText(output);
  if (Array.isArray(output.diagnostics)) return diagnosticsText(output, output.diagnostics);
  if (Array.isArray(output.matches)) return matchesText(output, output.matches);
  if (Array.isArray(output.items)) return navText(output, output.items);
  if (typeof output.diff === 'string' || (typeof output.message === 'string' && 'action' in output)) {
    return editorText(output);
  }
  if (typeof output.content === 'string') {
    const text = joinParts([output.content, str(output.note) ? `[${str(output.note)}]` : undefined]);
    return text || 'No results.';
  }
  if (typeof output.message === 'string') return output.message;
  return compact(output);
}
