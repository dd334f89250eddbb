/**
 * What a request touches on the file system, declared by the tool that serves it. A tool states it once, from its
 * own parsed request; permission policies, MCP roots, the read-before-edit guard and the conformance suite all read
 * this one declaration instead of guessing from field names.
 */

/** A path a call renames: from its old name to its new one (both as the request gives them). */
export interface TouchedMove {
  readonly from: string;
  readonly to: string;
}

/**
 * The paths one call reads, writes, creates, deletes, moves and runs in. Every path is as the request gives it:
 * relative to the workspace root, or absolute (the tool itself still refuses one outside the workspace). Leave out
 * what a call does not do; a call that touches nothing declares `{}`. A URL is not a path and is never listed.
 */
export interface Touches {
  /** Files or directories whose content or metadata is read (a directory read covers what is under it). */
  readonly read?: readonly string[];
  /** Existing files changed in place, or replaced (a write that may create the file lists it here). */
  readonly write?: readonly string[];
  /** Files or directories the call creates. */
  readonly create?: readonly string[];
  /** Files or directories the call deletes. */
  readonly delete?: readonly string[];
  /** Renames: both names are touched. */
  readonly move?: readonly TouchedMove[];
  /** The directory a command runs in. */
  readonly cwd?: string;
  /**
   * The call may reach anything in the workspace, not only the paths above (a command, a search of the root). A
   * consumer treats it as a touch of the root itself; the tool (or the OS sandbox around it) must keep out of paths a
   * policy withholds, e.g. by leaving them out of what it shows.
   */
  readonly workspace?: boolean;
}

/** What a declaration may use besides the request. */
export interface TouchContext {
  /** The root relative paths are resolved against, when the caller knows it. */
  readonly workspaceRoot?: string;
}

/**
 * A tool's declaration of what a request touches: a pure function of the *parsed* request (it never reads the disk
 * and never throws for a request the schema accepted).
 */
export type TouchesOf<REQ> = (request: REQ, context?: TouchContext) => Touches;

/** The declaration of a call that touches no path (a conversation tool, a message bus). */
export const NO_TOUCHES: Touches = Object.freeze({});

/** A declaration for tools that never touch a path: every request touches nothing. */
export const touchesNothing: TouchesOf<unknown> = () => NO_TOUCHES;

/**
 * Every path named by a declaration, each once, in the order read, write, create, delete, move (from, then to), cwd.
 * The whole-workspace marker adds no path; read `touches.workspace` for it.
 */
export function touchedPaths(touches: Touches): string[] {
  const out = new Set<string>();
  for (const list of [touches.read, touches.write, touches.create, touches.delete]) {
    for (const path of list ?? []) out.add(path);
  }
  for (const { from, to } of touches.move ?? []) {
    out.add(from);
    out.add(to);
  }
  if (touches.cwd !== undefined) out.add(touches.cwd);
  return [...out];
}

/**
 * What `args` touch by the tool's own declaration, or undefined when the tool declares nothing or its declaration
 * throws (a request it would refuse anyway); the one safe way for executors, policies and routers to ask.
 */
export function touchesOf<REQ>(
  tool: { readonly touches?: TouchesOf<REQ> | undefined },
  args: REQ,
): Touches | undefined {
  if (!tool.touches) return undefined;
  try {
    return tool.touches(args);
  } catch {
    return undefined;
  }
}
