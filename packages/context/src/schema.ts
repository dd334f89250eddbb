import { failureSchema } from '@bough/core';
import { z } from 'zod';
import { CONTEXT_ERROR_CODES, type ContextFailure } from './errors.js';

const index = (what: string) => z.number().int().nullish().describe(what);

/** The request of the `context` tool: one action plus the fields that action reads. */
export const ContextRequest = z
  .object({
    action: z
      .enum(['status', 'get_messages', 'evict', 'evict_action_results', 'restore', 'compact'])
      .describe(
        'status: sizes and token count of the active view. get_messages: list messages with short previews. ' +
          'evict: hide active messages [start:end). evict_action_results: hide old tool results. ' +
          'restore: bring back messages [start:end) of the full record. compact: replace a span with a summary.',
      ),
    start: index(
      'First index of the range (inclusive). evict/compact count positions in the active view; ' +
        'restore and get_messages with scope="all" count positions in the full record.',
    ),
    end: index(
      'End of the range (exclusive). get_messages and restore clamp any window to what exists (an empty window is ' +
        'an empty success); evict and compact need indices of 0 or more.',
    ),
    keep_last: z
      .number()
      .int()
      .nullish()
      .describe(
        'evict_action_results: how many of the most recent tool results stay active (the default is in the tool ' +
          'description; 0 or less keeps none).',
      ),
    summary: z
      .string()
      .nullish()
      .describe('compact: the summary that replaces the span. Write it yourself; it wins over auto.'),
    mode: z
      .enum(['tool_io', 'all'])
      .default('tool_io')
      .describe(
        'compact: "tool_io" collapses only tool calls and their results in the span; "all" collapses everything in it.',
      ),
    scope: z
      .enum(['active', 'all'])
      .default('active')
      .describe(
        'get_messages: "active" lists what you currently see; "all" lists the full record with [active]/[evicted] tags.',
      ),
    auto: z.boolean().default(false).describe('compact: when no summary is given, ask the branch model to write one.'),
  })
  .strict();

/** The parsed request type of the `context` tool. */
export type ContextRequest = z.infer<typeof ContextRequest>;
/** What a caller passes: the schema's input type (fields with defaults, such as `scope`, may be left out). */
export type ContextInput = z.input<typeof ContextRequest>;

const counts = { active: z.number().int(), total: z.number().int() };
const changes = {
  removed_ids: z.array(z.string()).describe('Ids of messages that left the active view.'),
  added_ids: z.array(z.string()).describe('Ids of messages that entered the active view.'),
};

const StatusResult = z.object({
  success: z.literal(true),
  action: z.literal('status'),
  active_messages: z.number().int(),
  total_messages: z.number().int(),
  evicted: z.number().int(),
  by_role: z.record(z.string(), z.number().int()),
  active_tokens: z.number().int(),
});

const MessagesResult = z.object({
  success: z.literal(true),
  action: z.literal('get_messages'),
  scope: z.enum(['active', 'all']),
  range: z.string(),
  messages: z.array(z.string()),
  next_start: z.number().int().optional(),
});

const EvictResult = z.object({
  success: z.literal(true),
  action: z.enum(['evict', 'evict_action_results']),
  removed: z.number().int(),
  message: z.string().optional(),
  ...changes,
  ...counts,
});

const RestoreResult = z.object({
  success: z.literal(true),
  action: z.literal('restore'),
  restored: z.number().int(),
  ...changes,
  ...counts,
});

const CompactResult = z.object({
  success: z.literal(true),
  action: z.literal('compact'),
  compacted: z.number().int(),
  summary_id: z.string(),
  tokens_freed_est: z.number().int(),
  ...changes,
  ...counts,
});

const Failure = failureSchema(CONTEXT_ERROR_CODES);

/** Every shape the `context` tool can return: one success shape per action, or a typed failure. */
export const ContextResponse = z.union([
  StatusResult,
  MessagesResult,
  EvictResult,
  RestoreResult,
  CompactResult,
  Failure,
]);

/** A response value of the `context` tool: one action's success, or a typed failure (narrow with `success`). */
export type ContextResponse = ContextSuccessByAction[keyof ContextSuccessByAction] | ContextFailure;

/** The success shape of each action, so a response narrows by `success` and then by `action`. */
export interface ContextSuccessByAction {
  status: z.infer<typeof StatusResult>;
  get_messages: z.infer<typeof MessagesResult>;
  evict: z.infer<typeof EvictResult> & { action: 'evict' };
  evict_action_results: z.infer<typeof EvictResult> & { action: 'evict_action_results' };
  restore: z.infer<typeof RestoreResult>;
  compact: z.infer<typeof CompactResult>;
}

/** The response to a request with action `A`: that action's success shape or a context failure. */
export type ContextResponseFor<A extends ContextInput['action']> = ContextSuccessByAction[A] | ContextFailure;

/** @internal */
export type StatusResult = z.infer<typeof StatusResult>;
/** @internal */
export type MessagesResult = z.infer<typeof MessagesResult>;
/** @internal */
export type EvictResult = z.infer<typeof EvictResult>;
/** @internal */
export type RestoreResult = z.infer<typeof RestoreResult>;
/** @internal */
export type CompactResult = z.infer<typeof CompactResult>;
