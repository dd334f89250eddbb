import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the checkpoints of a workspace live when no `storeDir` is given: under the user's state directory
 * (`$XDG_STATE_HOME`, else `~/.local/state`), in `bough/checkpoints/<hash of the workspace's real path>`. Outside the
 * workspace, so no tool, command or sandbox working in the workspace can reach or rewrite its own history; keyed by the
 * real path, so every branch, clone and resumed session on one workspace sees one history.
 */
export function defaultStoreDir(realRoot: string, env: Readonly<Record<string, string | undefined>> = {}): string {
  const state = env.XDG_STATE_HOME?.startsWith('/') ? env.XDG_STATE_HOME : join(env.HOME || homedir(), '.local/state');
  const key = createHash('sha256').update(realRoot).digest('hex').slice(0, 24);
  return join(state, 'bough', 'checkpoints', key);
}
