import { z } from 'zod';
import { AST_SEARCH_LANGUAGES } from './languages.js';

/** The ast_search request: a structural pattern, where to look and in which language. */
export const AstSearchRequest = z
  .object({
    pattern: z
      .string()
      .trim()
      .min(1, 'give a non-empty ast-grep pattern')
      .max(10_000)
      .describe(
        'ast-grep pattern written as code of the chosen language; $NAME matches one node, $$$ matches any sequence ' +
          '(e.g. "print($A)", "fmt.Println($$$ARGS)", "def $F($$$): $$$").',
      ),
    path: z
      .string()
      .default('.')
      .describe(
        'File or directory inside the workspace to search (default and "" = the workspace root). Directories honour .gitignore.',
      ),
    lang: z
      .enum(AST_SEARCH_LANGUAGES)
      .default('python')
      .describe('Language of the pattern and of the files searched (default "python").'),
    max_results: z
      .number()
      .int()
      .min(1)
      .max(500)
      .default(50)
      .describe('Most matches returned (1-500, default 50); `total` still counts every match found.'),
  })
  .strict();

/** The ast_search request after defaults are applied. */
export type AstSearchRequest = z.infer<typeof AstSearchRequest>;

/** One structural match. */
export const AstSearchMatch = z.object({
  file: z.string().describe('Path relative to the workspace root, with forward slashes.'),
  line: z.number().int().describe('First line of the match, 1-based.'),
  col: z.number().int().describe('Column where the match starts, 0-based.'),
  end_line: z.number().int().describe('Last line of the match, 1-based.'),
  text: z.string().describe('Matched source, trimmed and cut to a bounded length.'),
});

/** One structural match. */
export type AstSearchMatch = z.infer<typeof AstSearchMatch>;

/** The ast_search response: the ADR's status enum, matches, totals and what was left out. */
export const AstSearchResponse = z.object({
  status: z.enum(['ok', 'matches', 'unavailable', 'error']),
  matches: z.array(AstSearchMatch),
  summary: z.string(),
  total: z.number().int(),
  truncated: z.boolean(),
  error_code: z.string().optional(),
  files_searched: z.number().int().optional(),
  skipped: z.record(z.string(), z.number().int()).optional(),
});

/** The ast_search response. */
export type AstSearchResponse = z.infer<typeof AstSearchResponse>;
