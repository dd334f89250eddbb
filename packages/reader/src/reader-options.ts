import type { LinkRule, ProtectedNamePolicy, Workspace } from '@bough/workspace';
import type { DocumentCache } from './document-cache.js';
import type { ReaderLimits } from './limits.js';
import type { FetchPolicy, Resolver } from './remote/fetch-remote.js';

/** How a reader is set up: the workspace root, limits, the document cache and the remote-document policy. */
export interface ReaderOptions {
  /** Directory every path is confined to. */
  workspaceRoot: string;
  /** Overrides for {@link DEFAULT_READER_LIMITS}. */
  limits?: Partial<ReaderLimits>;
  /** TTL of the cache a tool creates for itself (ignored when `cache` is given: the cache's own TTL rules). */
  cacheTtlMs?: number;
  /** A document cache to share between readers; without one, `handleReader` converts documents on every call. */
  cache?: DocumentCache;
  /** Hosts `open` may fetch from over https, matched exactly (default: none, so remote open is off). */
  allowedHosts?: readonly string[];
  /** Name resolution for remote documents (default: `dns.lookup` with `all: true`). */
  resolver?: Resolver;
  /** Test-only overrides for remote fetching; every field is off by default. */
  fetchPolicy?: FetchPolicy;
  /** Credential names refused for reads and listings (default: the workspace package's list). */
  protectedNames?: ProtectedNamePolicy;
  /**
   * Paths a permission policy withholds (given a workspace-relative path): a listing leaves them out and counts them
   * as protected. The coding toolkit sets it from its policy.
   */
  hidden?: (relative: string) => boolean;
  /**
   * Where a symbolic link on a requested path may lead (the workspace's `linkRule`): a permission policy's path rules
   * applied to the real path the gate reached. The coding toolkit sets it from its policy.
   */
  linkRule?: LinkRule;
  /** An already opened workspace to reuse (its root wins over `workspaceRoot`). */
  workspace?: Workspace;
}
