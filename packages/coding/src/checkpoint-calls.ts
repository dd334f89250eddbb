import type { JobStore } from '@bough/bash';
import {
  type CheckpointStore,
  type CheckpointStoreOptions,
  createCheckpointStore,
  createCheckpointsTool,
} from '@bough/checkpoints';
import { defineTool, type ProviderContext, type Tool, type ToolHooks, withHooks } from '@bough/core';
import type { ProtectedNamePolicy } from '@bough/workspace';

/**
 * The toolkit's `checkpoints` option: `true` for the default store, or how to keep them. `stateDir` replaces
 * `$XDG_STATE_HOME`: each workspace (a subagent's too) gets its own store under `<stateDir>/bough/checkpoints/`.
 * `env` gives the variables that locate the default store (`XDG_STATE_HOME`, `HOME`) in place of this process's
 * (a CLI passes its own environment, so `bough undo` finds the same store).
 */
export type CheckpointsSetting =
  | boolean
  | (Pick<CheckpointStoreOptions, 'limits' | 'respectGitignore' | 'env'> & { readonly stateDir?: string });

/**
 * The toolkit tools whose calls can change workspace files: the editor (writes, edits, patches), bash (any command;
 * a background start too), jobs (what a background job wrote shows up when the model looks at it), the git-worktree
 * sandbox (its merge) and the subagent (its own tools). The read-only tools are left alone.
 */
const MUTATING_TOOLS: ReadonlySet<string> = new Set(['editor', 'bash', 'jobs', 'sandbox', 'subagent']);

/** How the toolkit's policy reaches the checkpoints: paths the store keeps out, and the `checkpoints` tool's hooks. */
export interface CheckpointsPolicy {
  /** Workspace-relative paths never stored, shown or restored (the policy's denied paths). */
  readonly exclude?: (path: string) => boolean;
  /** The hooks of the `checkpoints` tool (the permission check first). */
  readonly hooks?: ToolHooks;
}

/**
 * Takes a checkpoint before and after every call of a mutating tool, attributed to the branch, the call id and the
 * request, and adds the `checkpoints` tool so the model can list, diff and undo. The checkpoint runs inside the
 * handler, so a call refused by the permission policy costs nothing; a failing snapshot never fails the call.
 * Unset (the default) returns the tools unchanged.
 */
export function withCheckpoints(
  tools: Tool[],
  setting: CheckpointsSetting | undefined,
  context: ProviderContext,
  root: string,
  protectedNames: ProtectedNamePolicy | undefined,
  jobStore: () => JobStore | undefined,
  policy: CheckpointsPolicy = {},
): Tool[] {
  if (setting === undefined || setting === false) return tools;
  const { stateDir, env, ...rest } = typeof setting === 'object' ? setting : {};
  const store = createCheckpointStore({
    ...rest,
    root,
    // Where the CLI's `bough undo` looks too: the user's state directory unless the caller names one.
    env: stateDir
      ? { XDG_STATE_HOME: stateDir }
      : (env ?? { XDG_STATE_HOME: process.env.XDG_STATE_HOME, HOME: process.env.HOME }),
    ...(protectedNames ? { protectedNames } : {}),
    ...(policy.exclude ? { exclude: policy.exclude } : {}),
  });
  const branch = context.branch.name ?? context.branch.id;
  const jobs = new JobEnds(store, branch, jobStore);
  return [
    ...tools.map((tool) => (MUTATING_TOOLS.has(tool.name) ? recorded(tool, store, branch, jobs) : tool)),
    policy.hooks ? withHooks(createCheckpointsTool({ store }), policy.hooks) : createCheckpointsTool({ store }),
  ];
}

/**
 * A background job keeps writing after the call that started it returned: when it ends, one more checkpoint is taken,
 * attributed to that call, so its files are undone with it even when the model never asks about the job.
 */
class JobEnds {
  readonly #starts = new Map<string, { callId: string; request: unknown }>();
  /** Jobs that ended before their start was noted (a job quicker than the start call's own checkpoint). */
  readonly #endedEarly = new Map<string, string>();
  readonly #watched = new WeakSet<JobStore>();

  constructor(
    readonly store: CheckpointStore,
    readonly branch: string,
    readonly jobStore: () => JobStore | undefined,
  ) {}

  /** Listens to the build's job store (once), before a background start, so no ending is missed. */
  watch(): void {
    const jobs = this.jobStore();
    if (!jobs || this.#watched.has(jobs)) return;
    this.#watched.add(jobs);
    jobs.onJobEnd((job) => {
      const start = this.#starts.get(job.job_id);
      if (start) this.#checkpoint(job.job_id, job.status, start);
      else this.#endedEarly.set(job.job_id, job.status);
    });
  }

  started(jobId: string, callId: string, request: unknown): void {
    const start = { callId, request };
    const ended = this.#endedEarly.get(jobId);
    if (ended === undefined) this.#starts.set(jobId, start);
    else this.#checkpoint(jobId, ended, start);
  }

  #checkpoint(jobId: string, status: string, start: { callId: string; request: unknown }): void {
    this.#starts.delete(jobId);
    this.#endedEarly.delete(jobId);
    void this.store.snapshot({
      branch: this.branch,
      callId: start.callId,
      tool: 'bash',
      request: start.request,
      label: `background job ${jobId} ended (${status})`,
    });
  }
}

function jobIdOf(result: unknown): string | undefined {
  const value = result as { success?: unknown; job_id?: unknown } | null;
  return value?.success === true && typeof value.job_id === 'string' ? value.job_id : undefined;
}

function recorded(tool: Tool, store: CheckpointStore, branch: string, jobs: JobEnds): Tool {
  // Everything but the handler is the tool's own (its touches too: policies and MCP roots read that declaration).
  return defineTool({
    ...tool,
    handler: async (request, call) => {
      if (tool.name === 'bash') jobs.watch();
      const result = await store.record({ branch, callId: call.callId, tool: tool.name, request }, () =>
        tool.handler(request, call),
      );
      const jobId = tool.name === 'bash' ? jobIdOf(result) : undefined;
      if (jobId) jobs.started(jobId, call.callId, request);
      return result;
    },
  });
}
