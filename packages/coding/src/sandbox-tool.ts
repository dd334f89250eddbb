import { defineTool, errorMessage, parseOnce, type Tool, type ToolHooks } from '@bough/core';
import {
  type CreateWorktreeOptions,
  createWorktree,
  discardWorktree,
  PROTECTED_BRANCHES,
  WORKTREE_LIMITS,
  worktreeCommit,
  worktreeDiff,
  worktreeMerge,
} from '@bough/worktree';
import { z } from 'zod';
import { fail } from './errors.js';
import {
  type LegacySandboxOptions,
  sandboxMergeMessage,
  sandboxMergeResult,
  sandboxResult,
  worktreeOptions,
} from './internal/sandbox-legacy.js';
import type { ToolkitState } from './toolkit-state.js';

/** Request of the `sandbox` tool. */
export const SandboxRequest = z
  .object({
    action: z
      .enum(['create', 'diff', 'commit', 'merge', 'discard'])
      .describe('create a worktree sandbox, diff it against its base, commit in it, merge it back, or discard it'),
    message: z.string().min(1).max(2_000).optional().describe('Commit message; required for commit.'),
  })
  .strict();
/** Request of the `sandbox` tool. */
export type SandboxRequest = z.infer<typeof SandboxRequest>;

const DESCRIPTION =
  'Work in an isolated git worktree. create makes a sandbox branch from the current branch; while it is active, ' +
  'reader, editor, bash, search and the code tools all work inside the sandbox instead of the real checkout. ' +
  'diff shows every change against the base (new files included, read-only); commit records the changes; merge ' +
  'merges back into the base branch (refused on detached or protected branches; a conflicting merge is aborted ' +
  'and reported) and removes the sandbox; discard throws it away. Only one sandbox can be active at a time.';

/**
 * Settings of the sandbox tool, fixed by whoever constructs the toolkit (never by the model). The git worktree itself
 * is `@bough/worktree`; `timeoutMs`, `maxOutputBytes` and `maxPatchChars` are its limits.
 */
export interface SandboxToolOptions extends Omit<LegacySandboxOptions, 'signal'> {
  readonly allowProtected?: boolean;
  readonly protectedBranches?: readonly string[];
}

/** Builds the `sandbox` tool over a build's slot; the slot is cleared only once the worktree and branch are gone. */
export function createSandboxTool(state: ToolkitState, options: SandboxToolOptions, hooks: ToolHooks): Tool {
  // Checked here, so a bad `timeoutMs` / `maxOutputBytes` / `maxPatchChars` throws when the toolkit is built.
  const limits = WORKTREE_LIMITS.resolve(worktreeOptions(options).limits);
  return defineTool({
    name: 'sandbox',
    description: DESCRIPTION,
    request: SandboxRequest,
    scope: 'branch',
    hooks,
    annotations: { readOnlyHint: false, destructiveHint: true },
    // It copies, diffs and merges the workspace as a whole; no request names a path.
    touches: () => ({ workspace: true }),
    handler: async (request, { signal, parsedBy }) => {
      const parsed = parseOnce(SandboxRequest, request, parsedBy);
      if (!parsed.success) return fail('invalid_request', `Invalid sandbox request: ${parsed.error.message}`);
      try {
        return await run(parsed.data, state, options, { ...worktreeOptions(options), limits, signal });
      } catch (error) {
        return fail('sandbox_error', `The sandbox action failed unexpectedly: ${errorMessage(error)}`);
      }
    },
  });
}

async function run(
  request: SandboxRequest,
  state: ToolkitState,
  options: SandboxToolOptions,
  git: CreateWorktreeOptions,
) {
  const slot = state.sandbox;
  if (request.action === 'create') {
    if (slot.session) {
      return fail('sandbox_active', `Sandbox ${slot.session.name} is already active; merge or discard it first.`);
    }
    const made = sandboxResult(await createWorktree(state.workspaceRoot, git));
    if (!made.success) return made;
    slot.session = made.session;
    return {
      success: true,
      worktree: made.session.worktree,
      branch: made.session.branch,
      base: made.session.base,
      base_sha: made.session.baseSha,
      message: `Sandbox ready on branch ${made.session.branch}. File and shell tools now work inside it; use diff, commit, then merge or discard.`,
    };
  }
  const session = slot.session;
  if (!session) return fail('no_sandbox', 'No sandbox is active. Create one first with action "create".');
  switch (request.action) {
    case 'diff':
      return sandboxResult(await worktreeDiff(session, git));
    case 'commit':
      if (!request.message) return fail('invalid_request', 'commit needs a message describing the change.');
      return sandboxResult(await worktreeCommit(session, request.message, git));
    case 'merge': {
      const result = sandboxMergeResult(
        await worktreeMerge(session, {
          ...git,
          allowProtected: options.allowProtected === true,
          protectedBranches: options.protectedBranches ?? PROTECTED_BRANCHES,
          message: sandboxMergeMessage(session),
        }),
      );
      if (result.success) slot.session = undefined;
      return result;
    }
    default: {
      const result = await discardWorktree(session, git);
      if (result.success) slot.session = undefined;
      return {
        ...result,
        message: result.success
          ? 'Sandbox discarded: worktree and branch are gone.'
          : 'Sandbox only partly removed; the slot stays set. Run discard again to finish.',
      };
    }
  }
}
