import { failureSchema } from '@bough/core';
import { z } from 'zod';
import { EDITOR_ERROR_CODES, type EditorFailure as EditorFailureValue } from './errors.js';

/** One replacement of a `multi_edit`. */
export const EditorEditItem = z
  .object({
    old_string: z.string().describe('Exact text to replace, as the file holds it after the edits before this one.'),
    new_string: z.string().describe("The replacement ('' deletes old_string)."),
    replace_all: z.boolean().optional().describe('Replace every occurrence instead of requiring exactly one.'),
  })
  .strict();

/** The editor request: one flat object (hosts handle it better than a union); per-action rules live in the handler. */
export const EditorRequest = z
  .object({
    action: z
      .enum(['write', 'edit', 'multi_edit', 'patch', 'move', 'mkdir'])
      .describe(
        "'edit' replaces one exact text in a file; 'multi_edit' applies several replacements to one file, all or nothing; " +
          "'patch' changes several files at once from a patch (apply_patch format or a unified diff), all or nothing; " +
          "'write' creates a file or replaces its whole content; 'move' renames a file or directory; 'mkdir' creates a directory.",
      ),
    file_path: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Path of the file (for 'mkdir' the directory; for 'move' the source), relative to the workspace root " +
          "(absolute paths inside the workspace also work). Not used by 'patch'.",
      ),
    content: z.string().optional().describe("For 'write': the complete new file text."),
    old_string: z
      .string()
      .optional()
      .describe(
        "For 'edit': the exact text to replace, copied from the file without reader line-number prefixes. " +
          'Include enough surrounding lines to make it unique.',
      ),
    new_string: z.string().optional().describe("For 'edit': the replacement text ('' deletes old_string)."),
    replace_all: z
      .boolean()
      .default(false)
      .describe("For 'edit': replace every occurrence instead of requiring exactly one."),
    edits: z
      .array(EditorEditItem)
      .min(1)
      .optional()
      .describe(
        "For 'multi_edit': replacements applied in order, each to the result of the ones before; if one fails nothing is written.",
      ),
    patch: z
      .string()
      .optional()
      .describe(
        "For 'patch': the patch text, either '*** Begin Patch' ... '*** End Patch' (Add File / Update File with optional " +
          "Move to / Delete File, '@@' hunks of ' ', '-', '+' lines) or a unified diff as git diff or diff -u print it.",
      ),
    destination: z.string().min(1).optional().describe("For 'move': the new path."),
    overwrite: z
      .boolean()
      .optional()
      .describe("For 'move': replace an existing file at the destination (default false: refuse)."),
    dry_run: z
      .boolean()
      .optional()
      .describe('Run every check and return the same response (with the diff) without writing anything.'),
    exact: z
      .boolean()
      .optional()
      .describe(
        'Only exact matches: turn off the loose matching (whitespace, indentation, punctuation look-alikes, escapes) for this call.',
      ),
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
