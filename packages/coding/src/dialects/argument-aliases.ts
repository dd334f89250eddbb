import { z } from 'zod';

/**
 * Field names models trained on other harnesses send, per toolkit tool, mapped to ours: Claude Code and the
 * Anthropic text editor (`path`, `old_str`, `file_text`, `run_in_background`), Codex (`workdir`, `timeout_ms`,
 * `input`), Gemini CLI (`absolute_path`, `dir_path`, `directory`, `path`), pi and opencode (`oldText`, `filePath`). A
 * camelCase spelling of any of our own snake_case fields is accepted too. Kept here, not in the advertised schema:
 * each listed field would be sent to the model with every request.
 */
const EDIT_FIELDS = {
  path: 'file_path',
  file: 'file_path',
  absolute_path: 'file_path',
  old_str: 'old_string',
  oldText: 'old_string',
  new_str: 'new_string',
  newText: 'new_string',
  file_text: 'content',
  contents: 'content',
};
const GEMINI_FILE = { absolute_path: 'file_path', path: 'file_path' };
const GEMINI_DIR = { path: 'dir_path', directory: 'dir_path' };
const FIELD_ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  // The `minimal` profile's tools.
  read: { path: 'file_path', absolute_path: 'file_path', file: 'file_path' },
  write: EDIT_FIELDS,
  edit: EDIT_FIELDS,
  // The `gemini` profile's tools: Gemini CLI renamed `absolute_path` and `path` over its releases.
  read_file: GEMINI_FILE,
  write_file: GEMINI_FILE,
  replace: GEMINI_FILE,
  glob: GEMINI_DIR,
  search_file_content: GEMINI_DIR,
  list_directory: GEMINI_DIR,
  run_shell_command: GEMINI_DIR,
  // The toolkit's tools (bash serves both).
  reader: { file_path: 'path', absolute_path: 'path', file: 'path', dir_path: 'path', directory: 'path' },
  editor: {
    ...EDIT_FIELDS,
    input: 'patch',
    patch_text: 'patch',
    new_path: 'destination',
    command: 'action',
  },
  bash: {
    cmd: 'command',
    workdir: 'cwd',
    working_directory: 'cwd',
    directory: 'cwd',
    dir_path: 'cwd',
    timeout_ms: 'timeout',
    run_in_background: 'background',
  },
  search: { query: 'pattern', regex: 'pattern', dir_path: 'path', directory: 'path', head_limit: 'max_results' },
  jobs: { id: 'job_id', bash_id: 'job_id', shell_id: 'job_id' },
  code_nav: { file_path: 'path', name: 'symbol' },
  code_check: {},
  ast_search: { language: 'lang', file_path: 'path' },
};

/** What other harnesses call an action, per tool (the Anthropic editor's commands, `view`, `ls`, `glob`). */
const ACTION_ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  reader: { view: 'read', cat: 'read', ls: 'list_dir', list: 'list_dir' },
  editor: { str_replace: 'edit', replace: 'edit', create: 'write', rename: 'move', apply_patch: 'patch' },
  search: { rg: 'grep', glob: 'find' },
};

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The request fields a schema declares at its root (none when it is not an object schema). */
function fieldsOf(schema: z.ZodType): ReadonlySet<string> {
  try {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: object };
    return new Set(Object.keys(json.properties ?? {}));
  } catch {
    return new Set();
  }
}

/**
 * Renames the alias fields of one request to ours before it is validated. A field is renamed only when ours is
 * absent and the schema declares it; when both are sent the alias stays, and validation names it.
 */
function normalise(tool: string, fields: ReadonlySet<string>, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const table = FIELD_ALIASES[tool] ?? {};
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key of Object.keys(out)) {
    if (fields.has(key)) continue;
    const target = Object.hasOwn(table, key) ? table[key] : snake(key);
    if (target === undefined || !fields.has(target) || target in out) continue;
    out[target] = out[key];
    delete out[key];
  }
  const actions = ACTION_ALIASES[tool];
  const action = out.action;
  if (actions && typeof action === 'string' && Object.hasOwn(actions, action)) out.action = actions[action];
  return out;
}

/**
 * A request schema that accepts the argument names of other harnesses for a toolkit tool, renaming them before
 * validation; it advertises (as JSON Schema) and parses to exactly what `schema` does. A tool with no known
 * aliases and no fields gets `schema` back unchanged.
 */
export function withArgumentAliases<REQ>(tool: string, schema: z.ZodType<REQ>): z.ZodType<REQ> {
  const fields = fieldsOf(schema);
  if (fields.size === 0) return schema;
  return z.preprocess((value) => normalise(tool, fields, value), schema) as unknown as z.ZodType<REQ>;
}
