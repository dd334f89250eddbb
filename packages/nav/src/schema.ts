import { failureSchema, type ToolFailure } from '@bough/core';
import { z } from 'zod';
import { NAV_ERROR_CODES, type NavErrorCode } from './errors.js';

/** The code_nav request. */
export const NavRequest = z
  .object({
    action: z.enum(['outline', 'find_definition', 'find_references', 'hover', 'rename']),
    path: z.string().default('.').describe('File or directory (default: the root).'),
    symbol: z.string().min(1).max(200).optional().describe('Name, e.g. "UserService".'),
    new_name: z.string().min(1).max(200).optional(),
  })
  .strict();

/** The code_nav request. */
export type NavRequest = z.infer<typeof NavRequest>;

/** One outline entry, definition or reference. */
export const NavItem = z.object({
  kind: z.string().describe('class, function, method, assignment, interface, reference, …'),
  name: z.string().describe('Symbol name; methods are "Class.method".'),
  line: z.number().int().describe('1-based line.'),
  col: z.number().int().describe('0-based column.'),
  signature: z.string().optional().describe('Parameter list for callables, or the source line for references.'),
  file: z.string().optional().describe('Workspace-relative file, present for directory queries.'),
  doc: z.string().optional().describe("hover: the language server's text (type, signature, documentation)."),
});

/** One outline entry, definition or reference. */
export type NavItem = z.infer<typeof NavItem>;

/** A lookup that ran. */
export const NavSuccess = z.object({
  success: z.literal(true),
  items: z.array(NavItem),
  truncated: z.boolean().optional(),
  skipped: z
    .record(z.string(), z.number().int())
    .optional()
    .describe(
      'Directory queries: files left out by reason (protected, ignored, links, special, unreadable, too_large).',
    ),
  note: z.string().optional(),
  patch: z
    .string()
    .optional()
    .describe("rename: a unified diff of every change, for the editor's patch action (empty when nothing changes)."),
});

/** A lookup that did not run: core's failure schema over {@link NAV_ERROR_CODES} (with an empty `items`). */
export const NavFailure = z.object({
  ...failureSchema(NAV_ERROR_CODES).shape,
  items: z.array(NavItem).describe('Always empty on a failure.'),
});

/** The code_nav response: `success` on both arms. */
export const NavResponse = z.union([NavSuccess, NavFailure]);

/** The code_nav response (narrow with `success`). */
export type NavResponse =
  | (z.infer<typeof NavSuccess> & { readonly error?: undefined; readonly error_code?: undefined })
  | (ToolFailure<NavErrorCode> & {
      readonly items: NavItem[];
      readonly truncated?: undefined;
      readonly skipped?: undefined;
      readonly note?: undefined;
      readonly patch?: undefined;
    });

/** What a caller may pass to `handleCodeNav` (the schema's input type), so a plain program gets compile-time checks. */
export type NavInput = z.input<typeof NavRequest>;

/** The success of each action, by action name (every lookup answers with items). */
export interface NavSuccessByAction {
  outline: Extract<NavResponse, { success: true }>;
  find_definition: Extract<NavResponse, { success: true }>;
  find_references: Extract<NavResponse, { success: true }>;
  hover: Extract<NavResponse, { success: true }>;
  rename: Extract<NavResponse, { success: true }> & { readonly patch: string };
}

/** The answer to a request with action `A`: that action's success, or a failure (narrow with `success`). */
export type NavResponseFor<A extends NavInput['action']> =
  | NavSuccessByAction[A]
  | Extract<NavResponse, { success: false }>;
