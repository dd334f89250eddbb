import type { ToolRegistry } from '@bough/core';
import { callRegistry, type DialectCallOptions } from './dialect-call.js';
import { type DialectFailure, dialectFailure } from './dialect-failure.js';
import { capCharacters, textEditorError, viewRows } from './text-editor-render.js';

/**
 * One call of Anthropic's text editor tool (`str_replace_based_edit_tool`, version `text_editor_20250728`), as the
 * model sends it. `insert_text` is the documented name of the inserted text; `new_str` is accepted there too, as
 * older versions of the tool used it.
 */
export interface TextEditorInput {
  readonly command: 'view' | 'create' | 'str_replace' | 'insert';
  readonly path: string;
  readonly view_range?: readonly number[];
  readonly file_text?: string;
  readonly old_str?: string;
  readonly new_str?: string;
  readonly insert_line?: number;
  readonly insert_text?: string;
}

/** Options of {@link executeTextEditor}: the registry call options and the tool's `max_characters` setting. */
export interface TextEditorOptions extends DialectCallOptions {
  /** Cut each `view` to this many characters (the text editor tool's `max_characters`); unset means no cut. */
  readonly maxCharacters?: number;
}

/**
 * Runs one text editor call on a registry holding bough's `reader` and `editor` tools (the coding toolkit, or the
 * standalone tools) and renders the answer as the text editor documents it. Each command is a call of those tools
 * through the registry, so the read-before-edit guard, the permission policy and the workspace gate all apply; there
 * is no second implementation of reading or editing here. Never throws: a failure is a {@link DialectFailure} whose
 * `error` is the text editor's documented `Error: …` text.
 */
export async function executeTextEditor(
  registry: ToolRegistry,
  input: TextEditorInput,
  options: TextEditorOptions = {},
): Promise<string | DialectFailure> {
  if (typeof input?.path !== 'string' || input.path.trim() === '') return dialectFailure('Error: `path` is required.');
  switch (input.command) {
    case 'view':
      return view(registry, input, options);
    case 'create':
      return create(registry, input, options);
    case 'str_replace':
      return strReplace(registry, input, options);
    case 'insert':
      return insert(registry, input, options);
    default:
      return dialectFailure(
        `Error: Unknown command ${JSON.stringify((input as { command?: unknown })?.command)}. Use view, create, str_replace or insert.`,
      );
  }
}

function windowOf(range: readonly number[] | undefined): { offset?: number; limit?: number } | DialectFailure {
  if (range === undefined) return {};
  const [start, end] = range;
  const valid =
    range.length === 2 &&
    Number.isInteger(start) &&
    Number.isInteger(end) &&
    (start as number) >= 1 &&
    (end === -1 || (end as number) >= (start as number));
  if (!valid)
    return dialectFailure(
      'Error: `view_range` must be [start, end] with 1 <= start <= end, or end = -1 for the end of the file.',
    );
  return { offset: (start as number) - 1, ...(end === -1 ? {} : { limit: (end as number) - (start as number) + 1 }) };
}

async function view(
  registry: ToolRegistry,
  input: TextEditorInput,
  options: TextEditorOptions,
): Promise<string | DialectFailure> {
  const window = windowOf(input.view_range);
  if ('success' in window) return window;
  const read = await callRegistry(registry, 'reader', { action: 'read', path: input.path, ...window }, options);
  if (!read.ok && read.failure.error_code === 'not_a_file') {
    const listed = await callRegistry(registry, 'reader', { action: 'list_dir', path: input.path }, options);
    if (!listed.ok) return textEditorError(listed.failure, false);
    const entries = Array.isArray(listed.value.entries) ? (listed.value.entries as string[]) : [];
    return capCharacters(entries.join('\n'), options.maxCharacters);
  }
  if (!read.ok) return textEditorError(read.failure, false);
  const value = read.value;
  if (value.type === 'image') return dialectFailure(`Error: ${input.path} is an image, not a text file.`);
  const rows = viewRows(typeof value.content === 'string' ? value.content : '');
  // A window that stops before the end says so, with where to continue (the reader's own notice).
  const more = typeof value.next_offset === 'number' && typeof value.notice === 'string' ? `\n[${value.notice}]` : '';
  return capCharacters(rows + more, options.maxCharacters);
}

async function create(
  registry: ToolRegistry,
  input: TextEditorInput,
  options: TextEditorOptions,
): Promise<string | DialectFailure> {
  if (typeof input.file_text !== 'string') return dialectFailure('Error: `file_text` is required for create.');
  const args = { action: 'write', file_path: input.path, content: input.file_text };
  const written = await callRegistry(registry, 'editor', args, options);
  if (!written.ok) return textEditorError(written.failure, true);
  return `File created successfully at: ${input.path}`;
}

async function strReplace(
  registry: ToolRegistry,
  input: TextEditorInput,
  options: TextEditorOptions,
): Promise<string | DialectFailure> {
  if (typeof input.old_str !== 'string' || input.old_str === '')
    return dialectFailure('Error: `old_str` is required for str_replace.');
  const args = { action: 'edit', file_path: input.path, old_string: input.old_str, new_string: input.new_str ?? '' };
  const edited = await callRegistry(registry, 'editor', args, options);
  if (!edited.ok) return textEditorError(edited.failure, true);
  return 'Successfully replaced text at exactly one location.';
}

/**
 * Inserts after line `insert_line` (0: at the top) with a one-hunk unified diff anchored on that line, applied by the
 * editor's patch action; the anchor line is read through the reader first (that read is the model's own request, so
 * it counts as evidence for the guard like any read of that line).
 */
async function insert(
  registry: ToolRegistry,
  input: TextEditorInput,
  options: TextEditorOptions,
): Promise<string | DialectFailure> {
  const text = input.insert_text ?? input.new_str;
  const line = input.insert_line;
  if (typeof text !== 'string') return dialectFailure('Error: `insert_text` is required for insert.');
  if (typeof line !== 'number' || !Number.isInteger(line) || line < 0) {
    return dialectFailure('Error: `insert_line` must be a whole number, 0 or more.');
  }
  const anchorAt = Math.max(line, 1);
  const read = await callRegistry(
    registry,
    'reader',
    { action: 'read', path: input.path, offset: anchorAt - 1, limit: 1 },
    options,
    'anchor',
  );
  if (!read.ok) return textEditorError(read.failure, true);
  const total = typeof read.value.total_lines === 'number' ? read.value.total_lines : undefined;
  const row = typeof read.value.content === 'string' ? read.value.content : '';
  const anchor = /^(\d+)\t(.*)$/s.exec(row);
  const added = (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n').map((l) => `+${l}`);
  if (!anchor) {
    if (line === 0 && (total === 0 || row === '')) return create(registry, { ...input, file_text: text }, options);
    return dialectFailure(`Error: Invalid \`insert_line\` ${line}: the file has ${total ?? 'fewer'} lines.`);
  }
  const context = ` ${anchor[2]}`;
  const body = line === 0 ? [...added, context] : [context, ...added];
  const patch = [
    `--- a/${input.path}`,
    `+++ b/${input.path}`,
    `@@ -${anchorAt},1 +${anchorAt},${added.length + 1} @@`,
    ...body,
    '',
  ].join('\n');
  const patched = await callRegistry(registry, 'editor', { action: 'patch', patch }, options);
  if (!patched.ok) return textEditorError(patched.failure, true);
  return `Text inserted after line ${line} of ${input.path}.`;
}
