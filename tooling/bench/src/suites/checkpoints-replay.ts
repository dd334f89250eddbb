import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckpointStore } from '@bough/checkpoints';
import { repoRoot } from './support.js';

/** Bytes of every file under a directory (allocated size is not used: it hides small objects' real cost). */
export function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? bytesUnder(path) : lstatSync(path).size;
  }
  return total;
}

/** What the store and the peer grew by per checkpoint over a replay of real commits. */
export interface ReplayGrowth {
  readonly commits: number;
  readonly ours: number;
  readonly peer: number;
}

/**
 * Replays the newest `count` first-parent commits of this repository into `root` (each commit's tree written over the
 * last with `read-tree -u`, so files are created, changed and deleted as the commit did) and takes a checkpoint of
 * each, ours and the peer's; returns the bytes each object store grew by per checkpoint after the first. Undefined
 * when the history is too short (a shallow clone).
 */
export async function replayGrowth(
  store: CheckpointStore,
  storeObjects: string,
  peer: { readonly objects: string; readonly checkpoint: () => void },
  root: string,
  scratch: string,
  count: number,
): Promise<ReplayGrowth | undefined> {
  const gitDir = execFileSync('git', ['rev-parse', '--absolute-git-dir'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  let shas: string[];
  try {
    const out = execFileSync('git', ['rev-list', '--first-parent', `--max-count=${count + 1}`, 'HEAD'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    shas = out.trim().split('\n').filter(Boolean).reverse();
  } catch {
    return undefined;
  }
  if (shas.length < 3) return undefined;
  mkdirSync(root, { recursive: true });
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    GIT_DIR: gitDir,
    GIT_WORK_TREE: root,
    GIT_INDEX_FILE: join(scratch, 'replay.index'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  };
  const checkout = (sha: string) => execFileSync('git', ['read-tree', '-u', '--reset', sha], { env, stdio: 'ignore' });
  const both = async () => {
    const out = await store.snapshot({ tool: 'replay' });
    if (!out.success) throw new Error(out.error);
    peer.checkpoint();
  };
  checkout(shas[0]!);
  await both();
  const start = [bytesUnder(storeObjects), bytesUnder(peer.objects)];
  for (const sha of shas.slice(1)) {
    checkout(sha);
    await both();
  }
  const commits = shas.length - 1;
  return {
    commits,
    ours: (bytesUnder(storeObjects) - start[0]!) / commits,
    peer: (bytesUnder(peer.objects) - start[1]!) / commits,
  };
}
