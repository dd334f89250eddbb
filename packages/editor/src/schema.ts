import { failureSchema } from '@bough/core';
import { z } from 'zod';
import { EDITOR_ERROR_CODES, type EditorFailure as EditorFailureValue } from './errors.js';

/** One replacement of a `multi_edit`. */
export const EditorEditItem = z
  .object({
    // Described by the \`edits\` field and the tool description (each field text is sent with every request).
    old_string: z.string(),
    new_string: z.string(),
    replace_all: z.boolean().optional(),
  })
  .strict();

/** The editor request: one flat object (hosts handle it better than a union); per-action rules live in the handler. */
export const EditorRequest = z
  .object({
    action: z.enum(['write', 'edit', 'multi_edit', 'patch', 'move', 'mkdir']),
    file_path: z.string().min(1).optional().describe('Relative to the workspace root.'),
    content: z.string().optional(),
    old_string: z.string().optional().describe('edit: the exact text to replace.'),
    new_string: z.string().optional(),
    replace_all: z.boolean().default(false).describe('edit: replace every occurrence.'),
    edits: z.array(EditorEditItem).min(1).optional().describe('multi_edit: applied in order.'),
    patch: z.string().optional(),
    destination: z.string().min(1).optional(),
    overwrite: z.boolean().optional().describe('move: replace an existing destination.'),
    dry_run: z.boolean().optional(),
    exact: z.boolean().optional(),
  })
  .strict();

/** A parsed editor request. */
export type EditorRequest = z.infer<typeof EditorRequest>;
/** What a caller passes: the schema's input type (fields with defaults, such as `replace_all`, may be left out). */
export type EditorInput = z.input<typeof EditorRequest>;

/** The fields each action needs (the handler refuses a request without them as `invalid_request`). */
export interface EditorActionFields {
  readonly edit: { readonly file_path: string; readonly old_string: string; readonly new_string: string };
  readonly multi_edit: { readonly file_path: string; readonly edits: NonNullable<EditorInput['edits']> };
  readonly write: { readonly file_path: string; readonly content: string };
  readonly patch: { readonly patch: string };
  readonly move: { readonly file_path: string; readonly destination: string };
  readonly mkdir: { readonly file_path: string };
}

type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never;

/**
 * The fields action `A` needs, for a request whose action is known when it is written; a request whose action is
 * only known as a union (a parsed request passed on) is checked at run time instead.
 */
export type EditorFieldsFor<A extends EditorInput['action']> =
  true extends IsUnion<A> ? unknown : EditorActionFields[A];

const shared = {
  success: z.literal(true),
  path: z.string().describe('Real absolute path of the file.'),
  relative: z.string().describe('Path relative to the workspace root, with forward slashes.'),
  bytes: z.number().int().describe('Size of the file now on disk, in bytes.'),
  sha256: z
    .string()
    .optional()
    .describe(
      'SHA-256 (hex) of the bytes now on disk; a later read can compare against it. Absent when not computed (content over the hashMaxBytes limit).',
    ),
  encoding: z.enum(['utf-8', 'utf-8-bom', 'utf-16le', 'utf-16be']),
  line_ending: z.enum(['lf', 'crlf', 'mixed', 'none']),
  dry_run: z.literal(true).optional().describe('Present in a dry run: nothing was written (and no sha256 is given).'),
  message: z.string(),
};

const strategy = z
  .enum([
    'exact',
    'trailing_whitespace',
    'indentation',
    'unicode_punctuation',
    'escaped_characters',
    'line_number_prefix',
  ])
  .describe("How old_string was found: 'exact', or the loose-matching tier that found it (exactly one place).");

const hunkStrategy = z
  .enum([...strategy.options, 'first_occurrence'])
  .describe(
    "How a hunk was placed: 'exact' (its one place after the hunk before), 'first_occurrence' (the first of several places, taken because the order of the hunks or an identical result proves it is the right one), or the loose tier that found its one place.",
  );

/** How one applied edit matched and where its new text now is. */
export const EditorAppliedEdit = z.object({
  strategy,
  start_line: z.number().int().describe('First line of the new text, right after this edit.'),
  end_line: z.number().int().describe('Last line of the new text, right after this edit.'),
  replacements: z.number().int(),
});

/** Success of a `write`. */
export const EditorWriteSuccess = z.object({
  ...shared,
  action: z.literal('write'),
  created: z.boolean().describe('True when the file did not exist before.'),
  lines: z.number().int(),
  diff: z.string().optional().describe('In a dry run: the diff against the current file.'),
  diff_truncated: z.boolean().optional(),
});

/** Success of an `edit`. */
export const EditorEditSuccess = z.object({
  ...shared,
  action: z.literal('edit'),
  replacements: z.number().int().describe('How many occurrences were replaced.'),
  first_line: z.number().int().describe('1-based line of the first replacement in the new file.'),
  strategy,
  start_line: z.number().int().describe('First line of the new text in the new file.'),
  end_line: z.number().int().describe('Last line of the new text in the new file.'),
  diff: z.string().describe('Unified diff of the change with a few lines of context (may be cut).'),
  diff_truncated: z.boolean(),
});

/** Success of a `multi_edit`. */
export const EditorMultiEditSuccess = z.object({
  ...shared,
  action: z.literal('multi_edit'),
  edits: z.array(EditorAppliedEdit).describe('One entry per edit, in order.'),
  replacements: z.number().int().describe('Occurrences replaced by all edits together.'),
  added: z.number().int().describe('Lines added.'),
  removed: z.number().int().describe('Lines removed.'),
  diff: z.string().describe('Unified diff of all the edits together (may be cut).'),
  diff_truncated: z.boolean(),
});

/** One file a `patch` touched. */
export const EditorPatchFile = z.object({
  op: z.enum(['add', 'update', 'delete', 'move']),
  relative: z.string().describe('The file (for a move, its new path).'),
  from: z.string().optional().describe('For a move: the old path.'),
  added: z.number().int(),
  removed: z.number().int(),
  mode: z
    .string()
    .optional()
    .describe("When a git mode line set it: the file's permission bits now, in octal (e.g. '755')."),
  hunks: z
    .array(z.object({ strategy: hunkStrategy, start_line: z.number().int(), end_line: z.number().int() }))
    .optional()
    .describe('For an update or move: how each hunk matched and the lines its new text now occupies.'),
  hunks_total: z
    .number()
    .int()
    .optional()
    .describe('Present when `hunks` was cut (maxReportedHunks): how many hunks the file has.'),
});

/** Success of a `patch`. */
export const EditorPatchSuccess = z.object({
  success: z.literal(true),
  action: z.literal('patch'),
  files: z.array(EditorPatchFile),
  added: z.number().int(),
  removed: z.number().int(),
  diff: z.string().describe('The combined unified diff of every file (may be cut).'),
  diff_truncated: z.boolean(),
  dry_run: z.literal(true).optional(),
  message: z.string(),
});

/** Success of a `move`. */
export const EditorMoveSuccess = z.object({
  success: z.literal(true),
  action: z.literal('move'),
  from: z.string().describe('Old path, relative to the workspace root.'),
  relative: z.string().describe('New path, relative to the workspace root.'),
  path: z.string().describe('Real absolute new path.'),
  kind: z.enum(['file', 'directory']),
  overwrote: z.boolean().describe('True when an existing file at the destination was replaced.'),
  dry_run: z.literal(true).optional(),
  message: z.string(),
});

/** Success of a `mkdir`. */
export const EditorMkdirSuccess = z.object({
  success: z.literal(true),
  action: z.literal('mkdir'),
  relative: z.string(),
  path: z.string(),
  created: z.boolean().describe('False when the directory already existed.'),
  dry_run: z.literal(true).optional(),
  message: z.string(),
});

/** Any expected failure (core's failure schema over the editor's table); extra fields depend on `error_code`. */
export const EditorFailure = failureSchema(EDITOR_ERROR_CODES);
/** An expected editor failure; `error_code` is one of {@link EDITOR_ERROR_CODES}. */
export type EditorFailure = EditorFailureValue;

/** Every response the editor can return. */
export const EditorResponse = z.union([
  EditorWriteSuccess,
  EditorEditSuccess,
  EditorMultiEditSuccess,
  EditorPatchSuccess,
  EditorMoveSuccess,
  EditorMkdirSuccess,
  EditorFailure,
]);

/** A response value of the editor: a success, or a failure value that may carry extra fields. */
export type EditorResponse =
  | z.infer<typeof EditorWriteSuccess>
  | z.infer<typeof EditorEditSuccess>
  | z.infer<typeof EditorMultiEditSuccess>
  | z.infer<typeof EditorPatchSuccess>
  | z.infer<typeof EditorMoveSuccess>
  | z.infer<typeof EditorMkdirSuccess>
  | EditorFailure;

/** The success of each action, by action name. */
export interface EditorSuccessByAction {
  write: z.infer<typeof EditorWriteSuccess>;
  edit: z.infer<typeof EditorEditSuccess>;
  multi_edit: z.infer<typeof EditorMultiEditSuccess>;
  patch: z.infer<typeof EditorPatchSuccess>;
  move: z.infer<typeof EditorMoveSuccess>;
  mkdir: z.infer<typeof EditorMkdirSuccess>;
}

/** The response to a request with action `A`: that action's success, or a failure (narrow with `success`). */
export type EditorResponseFor<A extends EditorInput['action']> = EditorSuccessByAction[A] | EditorFailure;
