import { failureSchema, type ToolFailure } from '@bough/core';
import { z } from 'zod';
import { CODE_CHECK_ERROR_CODES, type CodeCheckErrorCode } from './errors.js';

/** The code_check request: what to check and with which checker. */
export const CodeCheckRequest = z
  .object({
    paths: z.array(z.string()).max(1_000).default([]),
    tool: z.enum(['auto', 'ruff', 'typescript']).default('auto').describe('auto picks by file type.'),
    max_diagnostics: z.number().int().min(1).max(500).default(50).describe('Most to list; total counts all.'),
  })
  .strict();

/** The code_check request after defaults are applied. */
export type CodeCheckRequest = z.infer<typeof CodeCheckRequest>;

/** One finding of a checker. */
export const CodeDiagnostic = z.object({
  file: z.string().describe('Path relative to the workspace root.'),
  line: z.number().int().describe('1-based line.'),
  col: z.number().int().describe('1-based column.'),
  end_line: z.number().int().nullable().optional(),
  end_col: z.number().int().nullable().optional(),
  severity: z.enum(['error', 'warning', 'info']),
  code: z.string().describe('Rule or compiler code, e.g. F401 or TS2322; "invalid-syntax" for a Python syntax error.'),
  message: z.string(),
  source: z
    .string()
    .describe('"ruff", "typescript", or the language server\'s own source name ("compiler", "clang", …).'),
  fixable: z.boolean().describe('True when ruff offers an automatic fix.'),
});

/** One finding of a checker. */
export type CodeDiagnostic = z.infer<typeof CodeDiagnostic>;

const skippedField = z
  .record(z.string(), z.number().int())
  .optional()
  .describe(
    'Files left out, by reason: protected, ignored (.gitignore), links (never followed), special (FIFO, socket, device), unreadable, too_large.',
  );

/** A check that ran: `success: true` beside the ADR's status (`ok` when clean, `diagnostics` otherwise). */
export const CodeCheckSuccess = z.object({
  success: z.literal(true).describe('true: the checkers ran; read status and diagnostics'),
  status: z.enum(['ok', 'diagnostics']),
  diagnostics: z.array(CodeDiagnostic),
  summary: z.string(),
  tool: z.string(),
  total: z.number().int(),
  text: z.string().optional().describe('One line per diagnostic: file:line:col: SEVERITY code message [fixable].'),
  files_checked: z.number().int().optional(),
  skipped: skippedField,
});

/** A check that did not run: core's failure schema over {@link CODE_CHECK_ERROR_CODES}, with the ADR's status. */
export const CodeCheckFailure = z.object({
  ...failureSchema(CODE_CHECK_ERROR_CODES).shape,
  status: z.enum(['unavailable', 'error']),
  diagnostics: z.array(CodeDiagnostic).describe('Always empty on a failure.'),
  summary: z.string().describe('The same text as `error`.'),
  tool: z.string(),
  total: z.number().int(),
});

/** The code_check response: `success` on both arms, the ADR's status enum beside it, totals and a text rendering. */
export const CodeCheckResponse = z.union([CodeCheckSuccess, CodeCheckFailure]);

/** A check that did not run; `error_code` is one of {@link CODE_CHECK_ERROR_CODES}. */
export type CodeCheckFailure = ToolFailure<CodeCheckErrorCode> & {
  readonly status: 'unavailable' | 'error';
  readonly diagnostics: CodeDiagnostic[];
  readonly summary: string;
  readonly tool: string;
  readonly total: number;
  /** Never set on a failure; declared so code reading a response without narrowing it still compiles. */
  readonly text?: undefined;
  readonly files_checked?: undefined;
  readonly skipped?: undefined;
};

/** A check that ran. */
export type CodeCheckSuccess = z.infer<typeof CodeCheckSuccess> & {
  /** Never set on a success; declared so code reading a response without narrowing it still compiles. */
  readonly error?: undefined;
  readonly error_code?: undefined;
};

/** The code_check response (narrow with `success`, or read `status`). */
export type CodeCheckResponse = CodeCheckSuccess | CodeCheckFailure;

/** What a caller may pass to `handleCodeCheck` (the schema's input type), so a plain program gets compile-time checks. */
export type CodeCheckInput = z.input<typeof CodeCheckRequest>;
