import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { type ParsedRequest, parseToolRequest, type ToolRegistry, touchedPaths, touchesOf } from '@bough/core';
import { fail, type McpFailure } from './errors.js';

/**
 * Where {@link RootRouter.route} sends a call: the root whose registry answers it (with the arguments as the tool's
 * request schema parsed them, when routing had to parse them), or the failure to answer with instead.
 */
export type RouteTarget = { readonly root: string; readonly parsed?: ParsedRequest } | { readonly refusal: McpFailure };

/** A directory that can be served, or why not. */
export type RootCheck = { success: true; root: string } | { success: false; reason: string };

/**
 * Checks one directory for serving: it must exist, be a readable directory, and not be the file system root.
 * The real path is returned (a symlink to a directory is followed once, here).
 */
export function checkRoot(dir: string, base: string = process.cwd()): RootCheck {
  const path = resolve(base, dir);
  let real: string;
  try {
    real = realpathSync(path);
    if (!statSync(real).isDirectory()) return { success: false, reason: `${path} is not a directory` };
    accessSync(real, constants.R_OK | constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'is not readable' : `cannot be used (${code})`;
    return { success: false, reason: `${path} ${why}` };
  }
  if (real === resolve('/', '.') || real === '/') {
    return { success: false, reason: `${path} is the file system root; serve a project directory instead` };
  }
  return { success: true, root: real };
}

function contains(root: string, path: string): boolean {
  if (path === root) return true;
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/**
 * Routes tool calls to the registry of the root their paths lie in. The paths are the ones the called tool declares
 * its request touches (`Tool.touches` of the parsed request: a patch's files, a move's two names, a command's cwd),
 * never guessed from field names. Relative paths belong to the first root; an absolute path to the deepest root
 * containing it (checked lexically here; each root's own workspace gate then applies every guarantee, links
 * included). A call without paths, with arguments its tool's schema refuses, or to a tool without a declaration goes
 * to the first root, whose own checks then answer it.
 */
export class RootRouter {
  readonly #registries = new Map<string, ToolRegistry>();
  #roots: readonly string[] = [];

  constructor(
    private readonly registryFor: (root: string) => ToolRegistry,
    private readonly release?: (registry: ToolRegistry, root: string) => void | Promise<void>,
  ) {}

  /** The roots served now, first one first. */
  get roots(): readonly string[] {
    return this.#roots;
  }

  /** Replaces the served roots; registries of roots that stay keep their state, dropped ones are forgotten. */
  setRoots(roots: readonly string[]): void {
    const unique = [...new Set(roots)];
    for (const [root, registry] of this.#registries) {
      if (unique.includes(root)) continue;
      this.#registries.delete(root);
      this.#release(registry, root);
    }
    this.#roots = Object.freeze(unique);
  }

  /** Forgets every registry built so far and hands each to the release hook (the server closed). */
  releaseAll(): void {
    for (const [root, registry] of this.#registries) this.#release(registry, root);
    this.#registries.clear();
  }

  #release(registry: ToolRegistry, root: string): void {
    if (!this.release) return;
    try {
      void Promise.resolve(this.release(registry, root)).catch(() => {});
    } catch {
      // a failing release hook must not break the router
    }
  }

  /** The registry of one served root (built on first use). */
  registry(root: string): ToolRegistry {
    let registry = this.#registries.get(root);
    if (!registry) {
      registry = this.registryFor(root);
      this.#registries.set(root, registry);
    }
    return registry;
  }

  /**
   * The root a call of the tool `name` with these arguments belongs to, or the failure to answer it with. When the
   * tool declares what it touches, the arguments were parsed by its request schema to read the declaration; that
   * parse comes back as `parsed` (core's `parseToolRequest`, good for one call with these same `args`), for the
   * registry call (`ExecuteOptions.parsed`) so the call is not parsed twice.
   */
  route(name: string, args: unknown): RouteTarget {
    const first = this.#roots[0];
    if (first === undefined) {
      return {
        refusal: fail(
          'no_roots',
          'No directory is being served yet: the client has not given any roots. Configure the server with ' +
            'directories (`bough mcp DIR`) or let the client share its workspace roots, then retry.',
        ),
      };
    }
    // The first root's registry holds the same tools as every other; its tool's declaration stands for all.
    const tool = this.registry(first).get(name);
    if (!tool?.touches) return { root: first };
    const request = parseToolRequest(tool, args);
    if (!request.success) return { root: first };
    const parsed = request.parsed;
    const touches = touchesOf(tool, parsed.data);
    let chosen: string | undefined;
    for (const path of touches ? touchedPaths(touches) : []) {
      if (path === '') continue;
      const root = isAbsolute(path) ? this.#deepest(resolve(path)) : first;
      if (root === undefined) {
        return {
          refusal: fail(
            'outside_roots',
            `${path} is outside the served directories (${this.#roots.join(', ')}). Use a path inside one of them, ` +
              'or a path relative to the first.',
          ),
        };
      }
      if (chosen !== undefined && chosen !== root) {
        return {
          refusal: fail(
            'mixed_roots',
            `This call names paths in two served directories (${chosen} and ${root}); make one call per directory.`,
          ),
        };
      }
      chosen = root;
    }
    return { root: chosen ?? first, parsed };
  }

  #deepest(path: string): string | undefined {
    let best: string | undefined;
    for (const root of this.#roots) {
      if (contains(root, path) && (best === undefined || root.length > best.length)) best = root;
    }
    return best;
  }
}
