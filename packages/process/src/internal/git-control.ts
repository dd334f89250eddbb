import { type Dirent, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// What inside a git directory makes git run code or read configuration elsewhere: hooks, configuration (repo,
// worktree and include files), `info/` (attributes name filter and diff drivers), `commondir` and `gitdir`
// indirections, and `objects/info/alternates`. Object, ref and log data never runs anything and can be large, so it
// is left out; everything a git directory holds under one of these names (also inside `worktrees/*` and
// `modules/**`, the git directories of linked worktrees and submodules) is recorded.
const CONTROL = new Set(['hooks', 'config', 'config.worktree', 'commondir', 'gitdir', 'info']);
const DATA_DIRS = new Set(['refs', 'logs', 'lfs', 'rr-cache']);
const MAX_ENTRIES = 20_000;
const MAX_BYTES = 8 * 1024 * 1024;

/** One recorded entry under a git directory: its type, mode, identity and content (or link target). */
export interface ControlEntry {
  readonly kind: 'file' | 'dir' | 'link' | 'other';
  readonly mode: number;
  readonly ino: number;
  readonly content?: Buffer;
  readonly target?: string;
}

/** Control entries by path relative to the git directory, and whether the bounds cut the recording short. */
export interface ControlRecord {
  readonly entries: Map<string, ControlEntry>;
  readonly partial: boolean;
}

/** Records every control entry under a git directory (links are recorded, never followed). */
export function recordControl(gitDir: string): ControlRecord {
  const entries = new Map<string, ControlEntry>();
  let budget = MAX_ENTRIES;
  let bytes = 0;
  let partial = false;
  const visit = (dir: string, rel: string, control: boolean) => {
    let list: Dirent[];
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of list) {
      if (--budget < 0) {
        partial = true;
        return;
      }
      const name = entry.name;
      const path = join(dir, name);
      const at = rel === '' ? name : `${rel}/${name}`;
      if (DATA_DIRS.has(name)) continue;
      if (name === 'objects' && entry.isDirectory()) {
        // Only the alternates files redirect object reads; the rest is data (and commit-graph, packs, …).
        for (const file of ['alternates', 'http-alternates']) {
          const recorded = snap(join(path, 'info', file));
          if (recorded) entries.set(`${at}/info/${file}`, recorded);
        }
        continue;
      }
      const isControl = control || CONTROL.has(name);
      const recorded = isControl ? snap(path) : undefined;
      if (recorded) {
        bytes += recorded.content?.length ?? 0;
        if (bytes > MAX_BYTES) {
          partial = true;
          return;
        }
        entries.set(at, recorded);
      }
      if (entry.isDirectory()) visit(path, at, isControl);
    }
  };
  visit(gitDir, '', false);
  return { entries, partial };
}

/** Records a single path (a file or directory the repository's configuration names) like a control entry. */
export function recordPath(path: string): ControlRecord {
  const entries = new Map<string, ControlEntry>();
  const top = snap(path);
  if (!top) return { entries, partial: false };
  entries.set('', top);
  if (top.kind !== 'dir') return { entries, partial: false };
  const inner = recordControlTree(path);
  for (const [rel, entry] of inner.entries) entries.set(rel, entry);
  return { entries, partial: inner.partial };
}

function recordControlTree(dir: string): ControlRecord {
  const entries = new Map<string, ControlEntry>();
  let budget = MAX_ENTRIES;
  const visit = (at: string, rel: string) => {
    let list: Dirent[];
    try {
      list = readdirSync(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of list) {
      if (--budget < 0) return;
      const path = join(at, entry.name);
      const key = rel === '' ? entry.name : `${rel}/${entry.name}`;
      const recorded = snap(path);
      if (recorded) entries.set(key, recorded);
      if (entry.isDirectory()) visit(path, key);
    }
  };
  visit(dir, '');
  return { entries, partial: budget < 0 };
}

function snap(path: string): ControlEntry | undefined {
  try {
    const st = lstatSync(path);
    const base = { mode: st.mode & 0o7777, ino: st.ino };
    if (st.isSymbolicLink()) return { ...base, kind: 'link', target: readlinkSync(path) };
    if (st.isDirectory()) return { ...base, kind: 'dir' };
    if (st.isFile()) {
      return { ...base, kind: 'file', content: st.size <= MAX_BYTES ? readFileSync(path) : Buffer.alloc(0) };
    }
    return { ...base, kind: 'other' };
  } catch {
    return undefined;
  }
}

/** True when two recordings of one entry differ in a way git could notice. */
export function differs(a: ControlEntry, b: ControlEntry): boolean {
  if (a.kind !== b.kind || a.mode !== b.mode) return true;
  if (a.kind === 'link') return a.target !== b.target;
  if (a.kind === 'file') return !(a.content as Buffer).equals(b.content as Buffer);
  return false;
}

/**
 * Paths inside the workspace that a repository's own configuration makes git execute or read: `core.hooksPath`
 * (hooks kept in the working tree, as husky does), `include.path` / `includeIf.*.path` files and `core.attributesFile`.
 * A small reader of git's config syntax: enough to find those keys, not a full parser.
 */
export function configuredPaths(gitDir: string, workTree: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(gitDir, 'config'), 'utf8');
  } catch {
    return [];
  }
  const found: string[] = [];
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)[#;].*$/, '').trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)/.exec(line);
    if (header) {
      section = (header[1] as string).toLowerCase();
      continue;
    }
    const pair = /^([A-Za-z0-9-]+)\s*=\s*(.*)$/.exec(line);
    if (!pair) continue;
    const key = `${section}.${(pair[1] as string).toLowerCase()}`;
    const value = (pair[2] as string).replace(/^"(.*)"$/, '$1');
    if (value === '') continue;
    if (key === 'core.hookspath' || key === 'core.attributesfile') found.push(resolve(workTree, value));
    else if ((section === 'include' || section === 'includeif') && key.endsWith('.path')) {
      found.push(resolve(dirname(join(gitDir, 'config')), value));
    }
  }
  return found.filter((path) => !relative(workTree, path).startsWith('..'));
}
