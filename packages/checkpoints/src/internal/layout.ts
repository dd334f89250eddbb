import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type GitContext, git } from './git.js';

/** The files of one store directory. */
export interface StoreLayout {
  readonly dir: string;
  readonly gitDir: string;
  readonly indexFile: string;
  readonly excludedFile: string;
  readonly pendingFile: string;
  readonly lockDir: string;
  /** The one ref naming the newest checkpoint; every checkpoint's parent is the one before it. */
  readonly refFile: string;
}

/** The ref holding the newest checkpoint (a loose ref: the store never packs refs). */
const HEAD_REF = 'refs/bough/checkpoints';

/** Paths of the store's parts under `dir`. */
export function storeLayout(dir: string): StoreLayout {
  const gitDir = join(dir, 'git');
  return {
    dir,
    gitDir,
    indexFile: join(dir, 'index'),
    excludedFile: join(dir, 'excluded.json'),
    pendingFile: join(dir, 'pending'),
    lockDir: join(dir, 'lock'),
    refFile: join(gitDir, HEAD_REF),
  };
}

// The store's own config. Nothing here may run a program or rewrite bytes; git reads no other config (no system or
// global file: see git.ts). gc and maintenance are off so no background process ever starts.
const CONFIG = `[core]
\trepositoryformatversion = 0
\tbare = false
\tfilemode = true
\tsymlinks = true
\tignorecase = false
\tlogallrefupdates = false
\thooksPath = /dev/null
\tfsmonitor = false
\tuntrackedCache = true
\tautocrlf = false
\tquotePath = false
\texcludesFile = /dev/null
\tattributesFile = /dev/null
[feature]
\tmanyFiles = true
[gc]
\tauto = 0
[maintenance]
\tauto = false
`;

// Highest-precedence attributes: whatever .gitattributes the workspace holds, files are stored byte for byte
// (no end-of-line conversion, no ident expansion, no clean filter, no re-encoding).
const ATTRIBUTES = '* -text -eol -ident -filter -working-tree-encoding\n';

/** Creates the store (private to the user) when it does not exist yet; idempotent. */
export async function ensureStore(
  layout: StoreLayout,
  ctx: GitContext,
): Promise<{ ok: true } | { ok: false; message: string }> {
  if (existsSync(join(layout.gitDir, 'config')) && existsSync(join(layout.gitDir, 'info', 'attributes'))) {
    return sameWorkspace(layout, ctx.workTree);
  }
  await mkdir(layout.dir, { recursive: true, mode: 0o700 });
  // The workspace this store belongs to: one index and one history can only ever describe one work tree.
  await writeFile(join(layout.dir, 'workspace'), ctx.workTree);
  const made = await git(ctx, ['init', '--bare', '--quiet', '--template=', layout.gitDir], { noWorkTree: true });
  if (!made.ok) return { ok: false, message: made.message };
  await writeFile(join(layout.gitDir, 'config'), CONFIG);
  await mkdir(join(layout.gitDir, 'info'), { recursive: true });
  await writeFile(join(layout.gitDir, 'info', 'exclude'), '');
  // HEAD names the newest checkpoint, so `git status` compares against it (an empty store has no HEAD yet).
  await writeFile(join(layout.gitDir, 'HEAD'), `ref: ${HEAD_REF}\n`);
  // Written last: its presence is what marks the store as complete.
  await writeFile(join(layout.gitDir, 'info', 'attributes'), ATTRIBUTES);
  return { ok: true };
}

/** Refuses a store made for another workspace (a shared `storeDir`): its index would describe other files. */
async function sameWorkspace(
  layout: StoreLayout,
  root: string,
): Promise<{ ok: true } | { ok: false; message: string }> {
  let owner: string | undefined;
  try {
    owner = readFileSync(join(layout.dir, 'workspace'), 'utf8');
  } catch {
    owner = undefined;
  }
  if (owner === undefined || owner === root) return { ok: true };
  return {
    ok: false,
    message: `the store at ${layout.dir} keeps the checkpoints of ${owner}, not of ${root}; give each workspace its own storeDir`,
  };
}
