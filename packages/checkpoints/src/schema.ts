import { failureSchema } from '@bough/core';
import { z } from 'zod';
import { CHECKPOINTS_ERROR_CODES, type CheckpointsFailure } from './errors.js';
import type { CheckpointList, DiffResult, RestoreResult } from './types.js';

/** A request to the `checkpoints` tool: list the checkpoints, show what one (or a range) changed, or restore one. */
export const CheckpointsRequest = z
  .object({
    action: z
      .enum(['list', 'diff', 'restore'])
      .describe(
        'list: the newest checkpoints (call, tool, time, files changed); diff: what a checkpoint changed (or `from` → `to`); restore: bring a checkpoint back.',
      ),
    limit: z.number().int().positive().optional().describe('For list: most checkpoints to show, newest first.'),
    branch: z.string().min(1).optional().describe('For list: only checkpoints made by this branch.'),
    from: z
      .string()
      .min(4)
      .optional()
      .describe('For diff: a checkpoint id; alone it shows what that checkpoint changed.'),
    to: z
      .string()
      .min(4)
      .optional()
      .describe(
        'For diff: the end of a range. For restore (required): the checkpoint to bring back — to undo a call, its `before`.',
      ),
    paths: z
      .array(z.string())
      .optional()
      .describe('For diff and restore: only these files or folders (relative to the workspace). Default everything.'),
    force: z
      .boolean()
      .optional()
      .describe(
        'For restore: overwrite changes nobody recorded since the newest checkpoint (they stay in the history).',
      ),
  })
  .strict()
  .superRefine((request, context) => {
    if (request.action === 'diff' && request.from === undefined) {
      context.addIssue({ code: 'custom', path: ['from'], message: 'diff needs `from`: a checkpoint id from list' });
    }
    if (request.action === 'restore' && request.to === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['to'],
        message: 'restore needs `to`: the checkpoint to bring back (to undo a call, its `before` from list)',
      });
    }
  });

/** A validated checkpoints request. */
export type CheckpointsRequest = z.infer<typeof CheckpointsRequest>;
/** What a caller may pass to `handleCheckpoints` (the schema's input type). */
export type CheckpointsInput = z.input<typeof CheckpointsRequest>;

const Skipped = z.object({
  path: z.string(),
  reason: z.enum(['protected', 'excluded', 'too_large', 'symlink', 'special_file', 'nested_repository']),
});

const Summary = z.object({
  id: z.string(),
  before: z.string().nullable().describe('Restore to this to undo the checkpoint; null for the first.'),
  time: z.string(),
  kind: z.enum(['after', 'before', 'restore', 'snapshot']),
  branch: z.string().optional(),
  call_id: z.string().optional(),
  tool: z.string().optional(),
  request: z.string().optional(),
  label: z.string().optional(),
  restored_to: z.string().optional(),
  files_changed: z.number().int(),
  files: z.array(z.string()),
});

/** The list answer. */
export const CheckpointsListResult = z.object({ success: z.literal(true), checkpoints: z.array(Summary) });

/** The diff answer. */
export const CheckpointsDiffResult = z.object({
  success: z.literal(true),
  from: z.string(),
  to: z.string(),
  diff: z.string(),
  truncated: z.boolean(),
});

/** The restore answer. */
export const CheckpointsRestoreResult = z.object({
  success: z.literal(true),
  id: z.string(),
  before: z.string().describe('Restore to this to undo the restore.'),
  restored_to: z.string(),
  changed_files: z.array(z.string()),
  changed_count: z.number().int(),
  skipped: z.array(Skipped),
  overwritten: z.array(z.string()),
});

/** Why a checkpoints request was refused. */
export const CheckpointsFailureSchema = failureSchema(CHECKPOINTS_ERROR_CODES);

/** Every answer of the checkpoints tool (narrow with `success`). */
export const CheckpointsResponse = z.union([
  CheckpointsListResult,
  CheckpointsDiffResult,
  CheckpointsRestoreResult,
  CheckpointsFailureSchema,
]);
/** Every answer of the checkpoints tool. */
export type CheckpointsResponse = CheckpointList | DiffResult | RestoreResult | CheckpointsFailure;
