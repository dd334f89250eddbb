import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import {
  type Branch,
  type BranchFromJsonOptions,
  type BranchJson,
  branchFromJson,
  branchToJson,
  isActionResponse,
} from '@bough/core';
import { DEFAULT_PROTECTED, type ProtectedNamePolicy } from '@bough/workspace';
import { UsageError } from '../args.js';

/** Where sessions live inside the workspace; `--resume` takes the newest file here. */
export const SESSION_DIR = join('.bough', 'sessions');
const FORMAT = 'bough.agent-session/1';

interface SessionFile {
  readonly format: typeof FORMAT;
  readonly workspace: string;
  readonly savedAt: string;
  readonly branch: BranchJson;
}

/**
 * The protected names of an agent run: the workspace's defaults, `.bough` (where sessions live: the model must not
 * read its own transcript back as a file, nor rewrite what a resume will replay), `bough.config.json` (so the model
 * cannot change the settings of the next run) and the session file's own name when `--session` puts it elsewhere
 * inside the workspace.
 */
export function agentProtectedNames(root: string, sessionFile: string): ProtectedNamePolicy {
  const inside = relative(root, sessionFile);
  const elsewhere = inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) && !inside.startsWith('.bough');
  return {
    ...DEFAULT_PROTECTED,
    names: [...DEFAULT_PROTECTED.names, '.bough', CONFIG_FILE, ...(elsewhere ? [basename(sessionFile)] : [])],
  };
}

/** The workspace's agent configuration file. */
export const CONFIG_FILE = 'bough.config.json';

/** `.bough/.gitignore` holding `*`, written when missing: sessions are the user's, never part of the repository. */
function ignoreSessions(root: string, sessionFile: string): void {
  const dir = join(root, '.bough');
  const inside = relative(dir, sessionFile);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return;
  mkdirSync(dir, { recursive: true });
  const ignore = join(dir, '.gitignore');
  if (!existsSync(ignore)) writeFileSync(ignore, '*\n');
}

/** A fresh session file name in the workspace's session folder (time first, so names sort by age). */
export function newSessionPath(root: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return join(root, SESSION_DIR, `${stamp}-${randomBytes(3).toString('hex')}.json`);
}

/** The most recently written session of the workspace, or undefined. */
export function latestSession(root: string): string | undefined {
  const dir = join(root, SESSION_DIR);
  if (!existsSync(dir)) return undefined;
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => join(dir, name))
    .map((path) => ({ path, mtime: statSync(path).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime || b.path.localeCompare(a.path));
  return files[0]?.path;
}

/**
 * What saves one run's session: each call writes the branch to `path` atomically (temp file + rename), so a crash
 * never leaves half a session. The session folder's ignore rules are set up by the first call only.
 */
export function sessionSaver(path: string, root: string): (branch: Branch) => void {
  let ready = false;
  return (branch) => {
    if (!ready) {
      ignoreSessions(root, path);
      ready = true;
    }
    writeSession(path, branch, root);
  };
}

function writeSession(path: string, branch: Branch, root: string): void {
  const file: SessionFile = {
    format: FORMAT,
    workspace: root,
    savedAt: new Date().toISOString(),
    branch: branchToJson(branch),
  };
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(file)}\n`, { mode: 0o600 });
  renameSync(temp, path);
}

/** What a resume found about the files the conversation had seen. */
export interface EvidenceCheck {
  /** Workspace-relative paths whose content is still what the conversation last saw. */
  readonly unchanged: string[];
  /** Paths that changed (or vanished) since. */
  readonly changed: string[];
}

/** Loads a session file for `root`; the branch's tools are rebuilt through `options.tools`. */
export function loadSession(path: string, root: string, options: BranchFromJsonOptions): Branch {
  let file: SessionFile;
  try {
    file = JSON.parse(readFileSync(path, 'utf8')) as SessionFile;
  } catch (error) {
    throw new UsageError(`The session file ${path} cannot be read (${(error as Error).message}).`);
  }
  if (file?.format !== FORMAT) throw new UsageError(`${path} is not a bough agent session file.`);
  if (file.workspace !== root) {
    throw new UsageError(
      `The session ${path} belongs to the workspace ${file.workspace}; pass --workspace ${file.workspace}.`,
    );
  }
  try {
    return branchFromJson(file.branch, options);
  } catch (error) {
    throw new UsageError(`The session ${path} cannot be continued: ${(error as Error).message}`);
  }
}

function sha256Of(path: string): string | undefined {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return undefined;
  }
}

/**
 * Re-checks the read-before-edit evidence a resumed conversation carries: for every file whose latest active reader
 * or editor result showed its content (path and sha256), the file on disk is hashed again. Only unchanged files
 * count as still seen; the caller renews their evidence with a fresh read, so a changed file must be read again.
 */
export function checkEvidence(branch: Branch, root: string): EvidenceCheck {
  const seen = new Map<string, string>();
  for (const message of branch.activeMessages()) {
    if (!isActionResponse(message) || message.content.status !== 'completed') continue;
    if (message.content.function !== 'reader' && message.content.function !== 'editor') continue;
    const output = message.content.output as { success?: unknown; path?: unknown; sha256?: unknown } | null;
    if (output?.success !== true || typeof output.path !== 'string' || typeof output.sha256 !== 'string') continue;
    seen.set(output.path, output.sha256);
  }
  const real = realpathSync(root);
  const unchanged: string[] = [];
  const changed: string[] = [];
  for (const [path, sha] of seen) {
    const inside = relative(real, path);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) continue;
    (sha256Of(path) === sha ? unchanged : changed).push(inside);
  }
  return { unchanged, changed };
}
