import { branchProvider, type Provider, type Tool } from '@bough/core';
import type { BashOptions } from './bash-options.js';
import { JobStore } from './job-store.js';
import type { JobsRequest, JobsResponse } from './jobs-schema.js';
import { createJobsTool } from './jobs-tool.js';
import { resolveBashLimits } from './limits.js';
import type { BashRequest, BashResponse } from './schema.js';
import { createBashTool } from './tool.js';

/** A bash tool and the jobs tool that manages its background jobs, sharing one job store. */
export interface BashToolSet {
  readonly bash: Tool<BashRequest, BashResponse>;
  readonly jobs: Tool<JobsRequest, JobsResponse>;
  /** Both tools, ready to register. */
  readonly tools: readonly Tool[];
  readonly store: JobStore;
  /** Kills every background job of this set and refuses new ones; resolves when their process groups are gone. */
  dispose(): Promise<void>;
}

/** Builds `bash` and `jobs` over a new job store; call `dispose()` when the owner (session, branch) goes away. */
export function createBashTools(options: BashOptions): BashToolSet {
  const limits = resolveBashLimits(options.limits); // once for the set; a bad override throws here
  const store = options.jobs ?? new JobStore(limits);
  const bash = createBashTool({ ...options, limits, jobs: store });
  const jobs = createJobsTool(store);
  return Object.freeze({ bash, jobs, tools: Object.freeze([bash, jobs]), store, dispose: () => store.dispose() });
}

/** A provider that can also shut down every job of every branch it built tools for. */
export interface DisposableProvider extends Provider {
  /** Kills the background jobs of every branch built so far; resolves when they are gone. */
  dispose(): Promise<void>;
}

/**
 * A branch provider handing out `bash` and `jobs`: each branch (and each clone) gets its own job store, so a clone
 * starts with no jobs and can never read or kill the jobs of its source.
 */
export function bashProvider(options: BashOptions): DisposableProvider {
  const limits = resolveBashLimits(options.limits); // once per provider; a bad override throws here
  const stores = new Set<JobStore>();
  const provider = branchProvider('bash', (context) => {
    const set = createBashTools({ ...options, limits, jobs: new JobStore(limits) });
    stores.add(set.store);
    context.abandoned?.addEventListener('abort', () => void set.dispose(), { once: true });
    return set.tools;
  });
  return Object.freeze({
    ...provider,
    dispose: async () => {
      await Promise.all([...stores].map((store) => store.dispose()));
    },
  });
}
