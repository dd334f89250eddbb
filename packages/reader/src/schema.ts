import { failureSchema } from '@bough/core';
import { z } from 'zod';
import { READER_ERROR_CODES, type ReaderFailure as ReaderFailureValue } from './errors.js';

/** The reader request: one flat object; fields that an action does not use are ignored. */
export const ReaderRequest = z
  .object({
    action: z.enum(['read', 'open', 'list_dir', 'read_many', 'stat']),
    path: z.string().optional().describe('Relative to the workspace root, or an https URL.'),
    paths: z.array(z.string().min(1)).min(1).optional(),
    offset: z.number().int().optional(),
    limit: z.number().int().optional(),
    recursive: z.boolean().optional().describe('list_dir: include subdirectories.'),
    file_types: z.array(z.string().min(1)).optional().describe("list_dir: only these extensions, e.g. ['ts']."),
  })
  .strict()
  .superRefine((request, context) => {
    // The blank-path rule: "" names the root only for the directory action; a file action needs a real path.
    if (request.path === '' && request.action !== 'list_dir') {
      context.addIssue({
        code: 'custom',
        path: ['path'],
        message: `${request.action} needs a non-empty path ("" means the workspace root only for list_dir)`,
      });
    }
  });

/** A parsed reader request. */
export type ReaderRequest = z.infer<typeof ReaderRequest>;
/** What a caller may pass to `handleReader` (the schema's input type), so a plain program gets compile-time checks. */
export type ReaderInput = z.input<typeof ReaderRequest>;

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

/** What `stat` tells about a path. */
export const ReaderStatSuccess = z.object({
  success: z.literal(true),
  type: z.literal('stat'),
  kind: z.enum(['file', 'directory']).describe('What the path is (links are followed inside the workspace).'),
  path: z.string().describe('Real absolute path.'),
  relative: z.string(),
  size_bytes: z.number().int(),
  mtime: z.string().describe('Last modification time, ISO 8601 (UTC).'),
  mode: z.string().describe('Permission bits in octal, e.g. "0644".'),
  lines: z
    .number()
    .int()
    .optional()
    .describe('Lines of a text file (absent for directories, binary files and files over the scan limit).'),
});

/** Any expected failure (core's failure schema over {@link READER_ERROR_CODES}); extra fields depend on `error_code`. */
export const ReaderFailure = failureSchema(READER_ERROR_CODES);
/** An expected reader failure; `error_code` is one of {@link READER_ERROR_CODES}. */
export type ReaderFailure = ReaderFailureValue;

const SingleResponse = z.union([
  ReaderTextSuccess,
  ReaderImageSuccess,
  ReaderListSuccess,
  ReaderStatSuccess,
  ReaderFailure,
]);

/** Several files read in one call: each path with its own result, in the order asked. */
export const ReaderManySuccess = z.object({
  success: z.literal(true),
  type: z.literal('many'),
  results: z.array(z.object({ path: z.string().describe('The path as given.'), result: SingleResponse })),
  read: z.number().int().describe('Paths read successfully.'),
  failed: z.number().int().describe('Paths whose result is a failure.'),
});

/** Every response the reader can return. */
export const ReaderResponse = z.union([
  ReaderTextSuccess,
  ReaderImageSuccess,
  ReaderListSuccess,
  ReaderStatSuccess,
  ReaderManySuccess,
  ReaderFailure,
]);

/** One path's response: everything the reader returns except a `read_many` list. */
export type SingleReaderResponse =
  | z.infer<typeof ReaderTextSuccess>
  | z.infer<typeof ReaderImageSuccess>
  | z.infer<typeof ReaderListSuccess>
  | z.infer<typeof ReaderStatSuccess>
  | ReaderFailure;

/** A response value of the reader. */
export type ReaderResponse =
  | SingleReaderResponse
  | {
      success: true;
      type: 'many';
      results: { path: string; result: SingleReaderResponse }[];
      read: number;
      failed: number;
    };

/** A text response, as built by read and open. */
export type ReaderTextResult = z.infer<typeof ReaderTextSuccess>;

/** The successes each action can return, by action name (`read` also returns an image). */
export interface ReaderSuccessByAction {
  read: z.infer<typeof ReaderTextSuccess> | z.infer<typeof ReaderImageSuccess>;
  open: z.infer<typeof ReaderTextSuccess>;
  list_dir: z.infer<typeof ReaderListSuccess>;
  stat: z.infer<typeof ReaderStatSuccess>;
  read_many: Extract<ReaderResponse, { type: 'many' }>;
}

/** The response to a request with action `A`: that action's success, or a failure (narrow with `success`). */
export type ReaderResponseFor<A extends ReaderInput['action']> = ReaderSuccessByAction[A] | ReaderFailure;
