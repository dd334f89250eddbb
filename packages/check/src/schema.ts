import { z } from 'zod';

/** The code_check request: what to check and with which checker. */
export const CodeCheckRequest = z
  .object({
    paths: z
      .array(z.string())
      .max(1_000)
      .default([])
      .describe(
        'Files or directories inside the workspace; an empty list (or "") means the whole workspace (.gitignore honoured).',
      ),
    tool: z
      .enum(['auto', 'ruff', 'typescript'])
      .default('auto')
      .describe('Checker: "ruff" for Python, "typescript" for .ts/.tsx/.js/.jsx/.mts/.cts, "auto" picks by file type.'),
    max_diagnostics: z
      .number()
      .int()
      .min(1)
      .max(500)
      .default(50)
      .describe('Most diagnostics returned (1-500, default 50); `total` counts all.'),
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
  source: z.string().describe('"ruff" or "typescript".'),
  fixable: z.boolean().describe('True when ruff offers an automatic fix.'),
});

/** One finding of a checker. */
export type CodeDiagnostic = z.infer<typeof CodeDiagnostic>;

/** The code_check response: the ADR's status enum plus totals and a text rendering. */
export const CodeCheckResponse = z.object({
  status: z.enum(['ok', 'diagnostics', 'unavailable', 'error']),
  diagnostics: z.array(CodeDiagnostic),
  summary: z.string(),
  tool: z.string(),
  total: z.number().int(),
  text: z.string().optional().describe('One line per diagnostic: file:line:col: SEVERITY code message [fixable].'),
  files_checked: z.number().int().optional(),
  skipped: z
    .record(z.string(), z.number().int())
    .optional()
    .describe(
      'Files left out, by reason: protected, ignored (.gitignore), links (never followed), special (FIFO, socket, device), unreadable, too_large.',
    ),
  error_code: z.string().optional(),
});

/** The code_check response. */
export type CodeCheckResponse = z.infer<typeof CodeCheckResponse>;
