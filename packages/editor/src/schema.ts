import type { ToolFailure } from '@bough/core';
import { z } from 'zod';

/** The editor request: one flat object (hosts handle it better than a union); per-action rules live in the handler. */
export const EditorRequest = z
  .object({
    action: z
      .enum(['write', 'edit'])
      .describe(
        "'write' creates a file or replaces its whole content; 'edit' replaces exact text inside an existing file.",
      ),
    file_path: z
      .string()
      .min(1)
      .describe('Path of the file, relative to the workspace root (absolute paths inside the workspace also work).'),
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
  })
  .strict();

/** A parsed editor request. */
export type EditorRequest = z.infer<typeof EditorRequest>;

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
  message: z.string(),
};

/** Success of a `write`. */
export const EditorWriteSuccess = z.object({
  ...shared,
  action: z.literal('write'),
  created: z.boolean().describe('True when the file did not exist before.'),
  lines: z.number().int(),
});

/** Success of an `edit`. */
export const EditorEditSuccess = z.object({
  ...shared,
  action: z.literal('edit'),
  replacements: z.number().int().describe('How many occurrences were replaced.'),
  first_line: z.number().int().describe('1-based line of the first replacement in the new file.'),
  diff: z.string().describe('Unified diff of the change with a few lines of context (may be cut).'),
  diff_truncated: z.boolean(),
});

/** Any expected failure; extra fields (candidates, match lines, offsets) depend on `error_code`. */
export const EditorFailure = z.looseObject({
  success: z.literal(false),
  error: z.string(),
  error_code: z.string(),
});

/** Every response the editor can return. */
export const EditorResponse = z.union([EditorWriteSuccess, EditorEditSuccess, EditorFailure]);

/** A response value of the editor: a success, or a failure value that may carry extra fields. */
export type EditorResponse = z.infer<typeof EditorWriteSuccess> | z.infer<typeof EditorEditSuccess> | ToolFailure;
