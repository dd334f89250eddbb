import { createCheckpointStore } from '@bough/checkpoints';
import type { CheckpointsSetting } from '@bough/coding';
import { ConfigurationError } from '@bough/core';

/** The agent's checkpoint setting, and a line for stderr when they are off for a reason the user did not give. */
export interface AgentCheckpoints {
  readonly setting?: CheckpointsSetting;
  readonly notice?: string;
}

/**
 * `bough agent` checkpoints every call that can change files by default, in the store `bough checkpoints` and
 * `bough undo` open: under the user's state directory as `env` locates it (never in the workspace), so the session's
 * calls, commands included, can be undone after it ends. `--no-checkpoints` turns them off; so does a state
 * directory inside the workspace (an agent run in the home directory), said on stderr.
 */
export function agentCheckpoints(
  off: boolean,
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): AgentCheckpoints {
  if (off) return {};
  const where = { XDG_STATE_HOME: env.XDG_STATE_HOME, HOME: env.HOME };
  try {
    // Opening a store writes nothing (the store is made on first use); it checks the place.
    createCheckpointStore({ root, env: where });
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    return { notice: `bough agent: checkpoints are off for this run: ${error.message}\n` };
  }
  return { setting: { env: where } };
}
