import type { ToolFailure } from '@bough/core';
import { z } from 'zod';

/** The reader request: one flat object; fields that an action does not use are ignored. */
export const ReaderRequest = z
  .object({
    action: z
      .enum(['read', 'open', 'list_dir'])
      .describe(
        "'read' shows a text file (or an image) as numbered lines; 'open' converts a document (.pdf, .docx, .pptx, " +
          ".html, .htm, or an allowed https URL) to text and shows it the same way; 'list_dir' lists a directory.",
      ),
    path: z
      .string()
      .min(1)
      .describe(
        'File or directory path relative to the workspace root (absolute paths inside it also work), or an https URL for open.',
      ),
    offset: z
      .number()
      .int()
      .optional()
      .describe('0-based line to start from (read/open); use the next_offset of the previous response to continue.'),
    limit: z.number().int().optional().describe('Maximum lines to return (read/open); default 2000.'),
    recursive: z.boolean().optional().describe('list_dir: include subdirectories (default false).'),
    file_types: z
      .array(z.string().min(1))
      .optional()
      .describe("list_dir: only files with these extensions, e.g. ['ts', '.md'] (case-insensitive)."),
  })
  .strict();

/** A parsed reader request. */
export type ReaderRequest = z.infer<typeof ReaderRequest>;

/** Text shown as numbered rows, for `read` and `open`. */
export const ReaderTextSuccess = z.object({
  success: z.literal(true),
  type: z.literal('text'),
  path: z.string().describe('Real absolute path, or the URL for a remote document.'),
  relative: z.string().describe('Path relative to the workspace root (the URL for a remote document).'),
  content: z.string().describe('Rows "<line number>\\t<text>", 1-based, joined by newlines.'),
  start_line: z.number().int(),
  end_line: z.number().int(),
  total_lines: z.number().int().optional().describe('Lines in the whole file, when it was scanned to the end.'),
  next_offset: z.number().int().optional().describe('Pass as offset to continue; absent when nothing follows.'),
  size_bytes: z.number().int(),
  sha256: z.string().optional().describe('SHA-256 of the whole file on disk, when it is within the scan limit.'),
  encoding: z.string(),
  source: z.enum(['file', 'pdf', 'docx', 'pptx', 'html']),
  cached: z.boolean().optional(),
  invalid_utf8_offset: z
    .number()
    .int()
    .optional()
    .describe('Byte offset of the first invalid UTF-8 byte shown as U+FFFD.'),
  notice: z.string(),
});

/** An image returned inline. */
export const ReaderImageSuccess = z.object({
  success: z.literal(true),
  type: z.literal('image'),
  path: z.string(),
  relative: z.string(),
  media_type: z.string(),
  content: z.string().describe('data:<media type>;base64,<bytes>'),
  size_bytes: z.number().int(),
  sha256: z.string(),
});

/** A directory listing. */
export const ReaderListSuccess = z.object({
  success: z.literal(true),
  type: z.literal('directory'),
  path: z.string(),
  relative: z.string(),
  entries: z.array(z.string()).describe('Workspace-relative paths, sorted; directories end with "/".'),
  content: z.string(),
  truncated: z.boolean(),
  skipped: z.record(z.string(), z.number().int()),
  notice: z.string(),
});

/** Any expected failure; extra fields depend on `error_code`. */
export const ReaderFailure = z.looseObject({ success: z.literal(false), error: z.string(), error_code: z.string() });

/** Every response the reader can return. */
export const ReaderResponse = z.union([ReaderTextSuccess, ReaderImageSuccess, ReaderListSuccess, ReaderFailure]);

/** A response value of the reader. */
export type ReaderResponse =
  | z.infer<typeof ReaderTextSuccess>
  | z.infer<typeof ReaderImageSuccess>
  | z.infer<typeof ReaderListSuccess>
  | ToolFailure;

/** A text response, as built by read and open. */
export type ReaderTextResult = z.infer<typeof ReaderTextSuccess>;
