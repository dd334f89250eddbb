import { failureSchema, type ToolFailure } from '@bough/core';
import { z } from 'zod';
import { AST_SEARCH_ERROR_CODES, type AstSearchErrorCode } from './errors.js';
import { AST_SEARCH_LANGUAGES } from './languages.js';

/** The ast_search request: a structural pattern, where to look and in which language. */
export const AstSearchRequest = z
  .object({
    pattern: z.string().trim().min(1, 'give a non-empty ast-grep pattern').max(10_000),
    path: z.string().default('.').describe('File or directory (default: the root).'),
    lang: z.enum(AST_SEARCH_LANGUAGES).default('python').describe('Language of pattern and files.'),
    max_results: z.number().int().min(1).max(500).default(50).describe('Most to list; total counts all.'),
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

/** A search that ran: `success: true` beside the ADR's status (`matches`, or `ok` when nothing matched). */
export const AstSearchSuccess = z.object({
  success: z.literal(true).describe('true: the search ran; read status and matches'),
  status: z.enum(['ok', 'matches']),
  matches: z.array(AstSearchMatch),
  summary: z.string(),
  total: z.number().int(),
  truncated: z.boolean(),
  files_searched: z.number().int().optional(),
  skipped: z.record(z.string(), z.number().int()).optional(),
});

/** A search that did not run: core's failure schema over {@link AST_SEARCH_ERROR_CODES}, with the ADR's status. */
export const AstSearchFailure = z.object({
  ...failureSchema(AST_SEARCH_ERROR_CODES).shape,
  status: z.enum(['unavailable', 'error']),
  matches: z.array(AstSearchMatch).describe('Always empty on a failure.'),
  summary: z.string().describe('The same text as `error`.'),
  total: z.number().int(),
  truncated: z.boolean(),
});

/** The ast_search response: `success` on both arms, the ADR's status enum beside it, matches and totals. */
export const AstSearchResponse = z.union([AstSearchSuccess, AstSearchFailure]);

/** A search that ran. */
export type AstSearchSuccess = z.infer<typeof AstSearchSuccess> & {
  /** Never set on a success; declared so code reading a response without narrowing it still compiles. */
  readonly error?: undefined;
  readonly error_code?: undefined;
};

/** A search that did not run; `error_code` is one of {@link AST_SEARCH_ERROR_CODES}. */
export type AstSearchFailure = ToolFailure<AstSearchErrorCode> & {
  readonly status: 'unavailable' | 'error';
  readonly matches: AstSearchMatch[];
  readonly summary: string;
  readonly total: number;
  readonly truncated: boolean;
  /** Never set on a failure; declared so code reading a response without narrowing it still compiles. */
  readonly files_searched?: undefined;
  readonly skipped?: undefined;
};

/** The ast_search response (narrow with `success`, or read `status`). */
export type AstSearchResponse = AstSearchSuccess | AstSearchFailure;

/** What a caller may pass to `handleAstSearch` (the schema's input type), so a plain program gets compile-time checks. */
export type AstSearchInput = z.input<typeof AstSearchRequest>;
