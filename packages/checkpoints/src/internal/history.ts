import { EMPTY_TREE, gitOut, readHead, type StoreCore, StoreFault } from './core.js';
import { git } from './git.js';
import { type CheckpointMeta, parseMeta } from './meta.js';

/** One checkpoint as `list` shows it. */
export interface HistoryEntry {
  readonly id: string;
  /** The checkpoint before this one: restore to it to undo this one's changes. */
  readonly parent: string | null;
  readonly meta: CheckpointMeta;
  readonly files: readonly string[];
}

const SEP = '\x1e';

/** The newest `limit` checkpoints (of `range` when given), newest first, each with the files it changed. */
export async function readHistory(core: StoreCore, limit: number, range?: string): Promise<HistoryEntry[]> {
  const head = range ?? (await readHead(core));
  if (head === undefined) return [];
  const out = await gitOut(core, [
    'log',
    '-z',
    '--no-renames',
    '--name-only',
    `--max-count=${limit}`,
    `--format=${SEP}%H%x00%P%x00%cI%x00%B`,
    head,
  ]);
  const entries: HistoryEntry[] = [];
  for (const record of out.toString('utf8').split(SEP)) {
    if (record === '') continue;
    const [id = '', parents = '', time = '', message = '', ...rest] = record.split('\0');
    entries.push({
      id,
      parent: parents.split(' ')[0] || null,
      meta: parseMeta(message.trim(), time),
      files: rest.map((f) => f.replace(/^\n/u, '')).filter((f) => f !== ''),
    });
  }
  return entries;
}

/** Resolves a checkpoint id (full or a unique prefix of at least 4 hex digits) to a full commit id of this store. */
export async function resolveCheckpoint(core: StoreCore, id: string): Promise<string | undefined> {
  if (!/^[0-9a-f]{4,64}$/iu.test(id)) return undefined;
  const out = await git(core.git, ['rev-parse', '--verify', '--quiet', `${id.toLowerCase()}^{commit}`]);
  if (!out.ok) {
    if (out.code === 1 || out.code === 128) return undefined;
    throw new StoreFault(out.message);
  }
  return out.stdout.toString('utf8').trim();
}

/** The parent of a checkpoint, or the empty tree for the first one. */
export async function parentOf(core: StoreCore, id: string): Promise<string> {
  const out = await git(core.git, ['rev-parse', '--verify', '--quiet', `${id}^1`]);
  return out.ok ? out.stdout.toString('utf8').trim() : EMPTY_TREE;
}

/** Unified diff between two checkpoints (or trees), limited to `paths` when given; text as git prints it. */
export async function unifiedDiff(
  core: StoreCore,
  from: string,
  to: string,
  paths: readonly string[],
): Promise<Buffer> {
  return gitOut(core, [
    'diff',
    '--no-ext-diff',
    '--no-textconv',
    '--no-color',
    '--find-renames',
    from,
    to,
    ...(paths.length > 0 ? ['--', ...paths] : []),
  ]);
}
