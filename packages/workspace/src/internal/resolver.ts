import type { Stats } from 'node:fs';
import { lstatSync, statSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, normalize, relative, resolve } from 'node:path';
import { errnoCode, quotePath, type WorkspaceFailure, workspaceFailure } from '../errors.js';
import type { WorkspaceLimits } from '../limits.js';
import { isGitDirName, isProtectedName, type ProtectedNamePolicy } from '../protected-names.js';
import type { LinkRule, PathIntent, ResolvedPath } from '../resolved-path.js';
import { gitDirGuard } from './git-dir-guard.js';
import { lexicalCheck } from './lexical.js';
import { childPath, components, inPseudoFs, isInside, plainParts, posixRelative } from './paths.js';
import { openProvenDir, PROVEN_BY_NAME, type ProvenDir } from './pinned-dir.js';

/** Everything a workspace operation needs to decide about a path. */
export interface ResolverContext {
  readonly root: string;
  readonly policy: ProtectedNamePolicy;
  readonly limits: WorkspaceLimits;
  /** fsync new content before it is renamed or linked into place ({@link WorkspaceOptions.durable}); default off. */
  readonly durable?: boolean;
  /** Where a followed link may lead ({@link WorkspaceOptions.linkRule}); without it, anywhere inside the root. */
  readonly linkRule?: LinkRule;
}

/** A resolved path plus what the safe operations need: the checked stat and which components are still missing. */
export interface ResolvedDetail extends ResolvedPath {
  /** lstat of the final component at check time, when it exists. */
  readonly stat?: Stats;
  /** Deepest existing real directory on the way. */
  readonly base: string;
  /** Components below `base` that do not exist yet (the last one is the target's own name). */
  readonly missing: readonly string[];
}

const outside = (input: string) =>
  workspaceFailure(
    'outside_workspace',
    `${quotePath(input)} is outside the workspace. Use a path relative to the workspace root (absolute paths are accepted only when they lie inside it).`,
  );

/** Maps an absolute path that is lexically outside the root onto it when it is an alias (e.g. a symlinked tmp dir). */
async function realignAlias(ctx: ResolverContext, abs: string): Promise<string | undefined> {
  let dir = dirname(abs);
  const tail: string[] = [basename(abs)];
  for (;;) {
    try {
      const real = await realpath(dir);
      if (!isInside(ctx.root, real)) return undefined;
      return relative(ctx.root, join(real, ...tail));
    } catch {
      const parent = dirname(dir);
      if (parent === dir) return undefined;
      tail.unshift(basename(dir));
      dir = parent;
    }
  }
}

function checkNames(ctx: ResolverContext, input: string, parts: readonly string[], intent: PathIntent) {
  for (const part of parts) {
    if (isProtectedName(part, ctx.policy)) {
      return workspaceFailure(
        'protected_path',
        `${quotePath(input)} is a protected file (credentials or keys) and cannot be ${intent === 'write' ? 'written' : 'read or listed'} by tools. Work with the other files, or ask the user to supply the needed values.`,
      );
    }
    if (intent === 'write' && isGitDirName(part)) {
      return workspaceFailure(
        'protected_path',
        `${quotePath(input)} is inside .git; tools may not write there (hooks and config would run code later). Use git commands instead.`,
      );
    }
  }
  return undefined;
}

function fsFailure(input: string, error: unknown): WorkspaceFailure {
  const code = errnoCode(error);
  if (code === 'ENAMETOOLONG')
    return workspaceFailure('invalid_path', `${quotePath(input)} is too long for the filesystem.`);
  if (code === 'EACCES' || code === 'EPERM') {
    return workspaceFailure('io_error', `Permission denied while checking ${quotePath(input)}.`);
  }
  return workspaceFailure(
    'io_error',
    `Could not check ${quotePath(input)} (${code ?? 'unknown error'}). Retry or pick another path.`,
  );
}

/** Walks a request one component at a time from the real root, applying every containment and name rule. */
export async function resolveDetail(
  ctx: ResolverContext,
  input: string,
  intent: PathIntent,
): Promise<ResolvedDetail | WorkspaceFailure> {
  const bad = lexicalCheck(input, ctx.limits);
  if (bad) return bad;
  // The common request, a relative path of plain names, is already its own normal form: no path arithmetic needed
  // (appended to the root like a single name).
  const plain = plainParts(input);
  const abs = plain ? childPath(ctx.root, input) : isAbsolute(input) ? normalize(input) : resolve(ctx.root, input);
  let rel: string | undefined = plain ? input : relative(ctx.root, abs);
  // Set when the walk leaves the path as spelled (a link followed, an alias of the root mapped onto it).
  let linked = false;
  if (!plain && !isInside(ctx.root, abs)) {
    if (!isAbsolute(input) || inPseudoFs(abs, ctx.root)) return outside(input);
    linked = true;
    rel = await realignAlias(ctx, abs);
    if (rel === undefined || !isInside(ctx.root, resolve(ctx.root, rel))) return outside(input);
  }
  // An absolute path is judged by the link rule as well: a caller that names the root through a link (a linked
  // temporary directory) cannot match its rules against a path spelled from the real root, which has no link on it.
  if (ctx.linkRule && !plain && isAbsolute(input)) linked = true;
  const parts = plain ?? components(rel);
  const named = checkNames(ctx, input, parts, intent);
  if (named) return named;

  let current = ctx.root;
  let finalStat: Stats | undefined = parts.length === 0 ? statSync(ctx.root) : undefined;
  let missing: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const next = childPath(current, part);
    const last = i === parts.length - 1;
    // One synchronous lstat per component: a few microseconds on a local disk, where the promise form costs a
    // thread-pool round trip each, and resolve runs for every path every tool touches.
    let st: Stats | undefined;
    try {
      st = lstatSync(next, { throwIfNoEntry: false });
    } catch (error) {
      return fsFailure(input, error);
    }
    if (st === undefined) {
      missing = parts.slice(i);
      break;
    }
    if (last) {
      if (st.isSymbolicLink()) {
        return workspaceFailure(
          'symlink_rejected',
          `${quotePath(input)} is a symbolic link; tools do not open links themselves. Use the real file's path instead.`,
        );
      }
      finalStat = st;
      current = next;
      break;
    }
    if (st.isSymbolicLink()) {
      let target: string;
      try {
        target = await realpath(next);
      } catch (error) {
        const code = errnoCode(error);
        if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') {
          return workspaceFailure(
            'symlink_rejected',
            `${quotePath(input)} goes through a symbolic link that is broken or loops. Use a path made of real directories.`,
          );
        }
        return fsFailure(input, error);
      }
      if (!isInside(ctx.root, target)) {
        return workspaceFailure(
          'outside_workspace',
          `${quotePath(input)} goes through a symbolic link that leads outside the workspace. Only paths that stay inside are allowed.`,
        );
      }
      try {
        st = await stat(target);
      } catch (error) {
        return fsFailure(input, error);
      }
      current = target;
      linked = true;
    } else {
      current = next;
    }
    if (!st.isDirectory()) {
      return workspaceFailure(
        'not_a_directory',
        `${quotePath(input)} treats a file as a directory (component ${quotePath(part)}). Check the path.`,
      );
    }
  }

  const path = missing.length > 0 ? join(current, ...missing) : current;
  // A plain request that met no link ends where it was asked: already inside, its real components its own.
  const asAsked = plain !== undefined && path === abs;
  if (!asAsked && !isInside(ctx.root, path)) return outside(input);
  const realParts = asAsked ? plain : components(relative(ctx.root, path));
  const realNamed = checkNames(ctx, input, realParts, intent);
  if (realNamed) return realNamed;
  const relativePath = asAsked ? input : posixRelative(ctx.root, path);
  if (linked && ctx.linkRule) {
    const why = ctx.linkRule(relativePath, intent);
    if (why !== undefined) {
      return workspaceFailure(
        'denied',
        `${quotePath(input)} goes through a symbolic link to ${quotePath(relativePath)}, ${why}. Do not retry it through the link.`,
      );
    }
  }
  if (intent === 'write') {
    const gitDir = await gitDirGuard(ctx.root, realParts, realParts.length - missing.length, input);
    if (gitDir) return gitDir;
  }
  const kind = !finalStat ? 'missing' : finalStat.isFile() ? 'file' : finalStat.isDirectory() ? 'directory' : 'other';
  return {
    success: true,
    path,
    relative: relativePath,
    exists: finalStat !== undefined,
    kind,
    ...(finalStat ? { stat: finalStat } : {}),
    base: current,
    missing,
  };
}

/** A directory named by a plain relative path, held open and proven to be exactly that path ({@link provenPlainDir}). */
export interface ProvenPlainDir {
  readonly held: ProvenDir;
  /** Its real path (the root joined with the request). */
  readonly path: string;
  /** The request itself, already its own normal form. */
  readonly relative: string;
}

/**
 * The short way to a directory for a request made of plain names (`src/lib`): open root/request without following a
 * final link and ask the kernel for the descriptor's name (Linux). When that name is the lexical path itself, no
 * component was a link (a link on the way would have changed the name) and every component is a real directory, so
 * the component walk of {@link resolveDetail} would reach the same directory with the same answer; the names are
 * checked just as it checks them. Undefined (nothing left open) whenever that cannot be shown: other spellings,
 * links, missing or refused paths, other platforms. The caller then takes the full walk, which reports exactly why,
 * and closes `held` otherwise.
 */
export function provenPlainDir(ctx: ResolverContext, input: string): ProvenPlainDir | undefined {
  if (!PROVEN_BY_NAME || lexicalCheck(input, ctx.limits)) return undefined;
  const parts = plainParts(input);
  if (!parts || checkNames(ctx, input, parts, 'list')) return undefined;
  const path = childPath(ctx.root, input);
  const held = openProvenDir(path);
  return held ? { held, path, relative: input } : undefined;
}
