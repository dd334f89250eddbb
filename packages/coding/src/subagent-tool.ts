import {
  Branch,
  type ChatModel,
  defineTool,
  errorMessage,
  type Provider,
  parseOnce,
  type Tool,
  type ToolHooks,
} from '@bough/core';
import { type PermissionPresetName, PRESET_RANK } from '@bough/policy';
import { isWorkspaceFailure, type LinkRule } from '@bough/workspace';
import { z } from 'zod';
import { runAgent } from './agent-loop.js';
import { fail } from './errors.js';
import { DEFAULT_CODING_LIMITS } from './limits.js';
import type { ToolkitState } from './toolkit-state.js';

const L = DEFAULT_CODING_LIMITS;

/** The `subagent` request schema for a turn budget (default and ceiling), so the limits stay overridable. */
export function subagentRequest(turns: { defaultTurns: number; maxTurns: number }) {
  return z
    .object({
      instruction: z
        .string()
        .min(1)
        .max(L.subagentInstructionChars)
        .describe('The task for the subagent, self-contained: it sees none of this conversation.'),
      permissions: z
        .enum(['read_only', 'safe', 'allow_all', 'deny_all'])
        .default('read_only')
        .describe('Permission preset of the subagent (never more than this toolkit has).'),
      max_turns: z
        .number()
        .int()
        .min(1)
        .max(turns.maxTurns)
        .default(turns.defaultTurns)
        .describe('Model turns the subagent may take.'),
      cwd: z
        .string()
        .min(1)
        .optional()
        .describe('Directory inside the workspace the subagent works in (default: the workspace root).'),
    })
    .strict();
}

/** Request of the `subagent` tool with the default limits. */
export const SubagentRequest = subagentRequest({ defaultTurns: L.subagentDefaultTurns, maxTurns: L.subagentMaxTurns });
/** Request of the `subagent` tool. */
export type SubagentRequest = z.infer<typeof SubagentRequest>;

/** The system prompt of every subagent. */
export const SUBAGENT_SYSTEM_PROMPT =
  'You are a subagent working on one delegated task. Use the tools to do it, then reply with a short report: what you ' +
  'found, what you changed (files and lines), and anything left undone. Keep the report brief.';

/** What the subagent tool needs from the toolkit that creates it. */
export interface SubagentDeps {
  /**
   * Builds the child's toolkit provider for a root and preset (a new build: nothing shared with the parent); its
   * `dispose`, when it has one, runs when the subagent is done (its background jobs end with it).
   */
  readonly childToolkit: (root: string, preset: PermissionPresetName) => Provider & { dispose?(): Promise<void> };
  /** The parent's preset, when it uses one; a child may not get a more permissive one. */
  readonly parentPreset: PermissionPresetName | undefined;
  readonly fallbackModel: ChatModel | undefined;
  /** Where a link on the way to `cwd` may lead (the parent policy's rule for subagent); the gate refuses the rest. */
  readonly linkRule?: LinkRule;
  readonly answerChars?: number;
  readonly defaultTurns?: number;
  readonly maxTurns?: number;
}

/** Builds the `subagent` tool: a fresh child branch with its own toolkit under a preset, driven by the parent's model. */
export function createSubagentTool(state: ToolkitState, deps: SubagentDeps, hooks: ToolHooks): Tool {
  const schema = subagentRequest({
    defaultTurns: deps.defaultTurns ?? L.subagentDefaultTurns,
    maxTurns: deps.maxTurns ?? L.subagentMaxTurns,
  });
  // One options object for the gate of `cwd`, so the build opens that gate once.
  const gate = deps.linkRule ? { linkRule: deps.linkRule } : undefined;
  return defineTool({
    name: 'subagent',
    description:
      'Delegate a self-contained task to a fresh subagent with its own tools and context (read_only by default). ' +
      'It does not see this conversation, so put everything it needs in the instruction. Returns its report ' +
      `(cut at ${deps.answerChars ?? L.subagentAnswerChars} characters) and how many tool calls it made.`,
    request: schema,
    scope: 'branch',
    // The child works in `cwd`; each of its own calls is checked by its own toolkit's policy.
    touches: (request) => ({ cwd: request.cwd ?? '.' }),
    hooks,
    handler: async (raw, { signal, parsedBy }) => {
      const parsed = parseOnce(schema, raw, parsedBy);
      if (!parsed.success) return fail('invalid_request', `Invalid subagent request: ${parsed.error.message}`);
      const request = parsed.data;
      if (deps.parentPreset !== undefined && PRESET_RANK[request.permissions] > PRESET_RANK[deps.parentPreset]) {
        return fail(
          'permission_escalation',
          `A subagent cannot get '${request.permissions}' permissions from a toolkit running under '${deps.parentPreset}'. Choose '${deps.parentPreset}' or a narrower preset.`,
        );
      }
      const model = state.branch.model ?? deps.fallbackModel;
      if (!model)
        return fail('no_model', 'No model is available to run a subagent; configure one on the branch or the toolkit.');
      const root = state.currentRoot();
      let cwd = root;
      if (request.cwd !== undefined) {
        const resolved = await (await state.workspace(root, gate)).resolve(request.cwd, 'list');
        if (isWorkspaceFailure(resolved)) return resolved;
        if (resolved.kind !== 'directory')
          return fail('not_a_directory', `cwd ${JSON.stringify(request.cwd)} is not a directory.`);
        cwd = resolved.path;
      }
      const child = new Branch({ system: SUBAGENT_SYSTEM_PROMPT, model, workspaceRoot: cwd, name: 'subagent' });
      let toolkit: ReturnType<SubagentDeps['childToolkit']>;
      try {
        toolkit = deps.childToolkit(cwd, request.permissions);
        child.registerTools(toolkit);
      } catch (error) {
        return fail('subagent_setup_failed', `The subagent's tools could not be built: ${errorMessage(error)}`);
      }
      let outcome: Awaited<ReturnType<typeof runAgent>>;
      try {
        outcome = await runAgent(child, request.instruction, { model, maxTurns: request.max_turns, signal });
      } finally {
        await toolkit.dispose?.();
      }
      if (outcome.stopped === 'model_error') {
        return fail('model_error', `The subagent's model failed: ${outcome.error ?? 'unknown error'}`, {
          tool_calls: outcome.toolCalls,
        });
      }
      if (outcome.stopped === 'aborted')
        return fail('aborted', 'The subagent was cancelled.', { tool_calls: outcome.toolCalls });
      const cap = deps.answerChars ?? L.subagentAnswerChars;
      return {
        success: true,
        response:
          outcome.text.length > cap
            ? `${outcome.text.slice(0, cap)}\n[... answer cut at ${cap} characters]`
            : outcome.text,
        response_truncated: outcome.text.length > cap,
        tool_calls: outcome.toolCalls,
        turns: outcome.turns,
        stopped: outcome.stopped,
        ...(outcome.stopped === 'max_turns'
          ? { note: 'The subagent ran out of turns; its report may be incomplete.' }
          : {}),
      };
    },
  });
}
