import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { failure } from '@branchkit/core';
import picomatch from 'picomatch';
import { baseRgArgs, displayPath, isProtectedPath, toWorkspacePath } from './internal/rg-common.js';
import { RgSkipTally } from './internal/rg-skips.js';
import { rgFailure, runRg } from './internal/run-rg.js';
import { type SearchContext, searchResult } from './internal/search-context.js';
import { confirmDeadline, confirmPaths } from './internal/verify-results.js';
import type { SearchResponse } from './schema.js';

/** A glob without '/' matches file names at any depth, the way `*.ts` is usually meant. */
export function anchorGlob(glob: string): string {
  const clean = glob.startsWith('./') ? glob.slice(2) : glob;
  return clean.includes('/') ? clean : `**/${clean}`;
}

async function newestFirst(root: string, paths: string[]): Promise<string[]> {
  const stamped: { path: string; mtime: number }[] = [];
  const queue = [...paths];
  const worker = async () => {
    for (let path = queue.pop(); path !== undefined; path = queue.pop()) {
      try {
        stamped.push({ path, mtime: (await lstat(join(root, path))).mtimeMs });
      } catch {
        stamped.push({ path, mtime: 0 }); // removed while we looked: keep it, last
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  stamped.sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return stamped.map((entry) => entry.path);
}

/** Lists files whose path matches a glob (ripgrep's walker, so .gitignore is honoured), newest first. */
export async function find(ctx: SearchContext): Promise<SearchResponse> {
  const { request } = ctx;
  const options = { dot: true, nocase: request.case_insensitive === true };
  const matches = picomatch(anchorGlob(request.pattern), options);
  const included = request.include ? picomatch(anchorGlob(request.include), options) : () => true;
  const stopAt = Math.max(ctx.limits.countLimit, ctx.maxResults);
  const found: string[] = [];
  let withheld = 0;
  let pending = '';
  const skips = new RgSkipTally();
  const started = Date.now();

  const run = await runRg({
    rgPath: ctx.rgPath,
    // --null: names may hold newlines; --sort=path keeps a stopped listing deterministic.
    args: [...baseRgArgs(request.include_ignored === true), '--files', '--null', '--sort=path', '--', ctx.target],
    cwd: ctx.cwd,
    workspaceRoot: ctx.workspaceRoot,
    timeoutMs: ctx.limits.timeoutMs,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    onStdout: (chunk, stop) => {
      const parts = (pending + chunk.toString('utf8')).split('\0');
      pending = parts.pop() ?? '';
      for (const raw of parts) {
        if (found.length >= stopAt) break;
        const local = raw.startsWith('./') ? raw.slice(2) : raw;
        if (!matches(local) || !included(local)) continue;
        const path = toWorkspacePath(ctx.prefix, raw);
        if (isProtectedPath(path, ctx.policy)) withheld++;
        else found.push(path);
      }
      if (found.length >= stopAt) stop();
    },
    onStderr: (chunk) => skips.push(chunk),
  });
  const { outcome } = run;
  if (!outcome.success) return rgFailure(outcome);
  if (outcome.return_code === 2 && found.length === 0 && !outcome.timed_out && !run.stoppedEarly) {
    const detail = skips.messages().trim().replace(/^rg: /gm, '').slice(0, 600);
    return failure('search_failed', `Listing files failed: ${detail || 'no error text'}`);
  }
  const ordered = await newestFirst(ctx.workspaceRoot, found);
  // A directory swapped for a link during ripgrep's walk could have listed names from outside; confirm what is shown.
  const confirmed = await confirmPaths(ctx.workspace, ordered.slice(0, ctx.maxResults), {
    deadline: confirmDeadline(started, ctx.limits),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  const lines = confirmed.kept.map(displayPath);
  return searchResult(
    ctx,
    lines,
    {
      count: found.length - confirmed.dropped,
      changed: confirmed.dropped,
      lowerBound: run.stoppedEarly || outcome.timed_out || outcome.aborted,
      timedOut: outcome.timed_out || confirmed.unchecked > 0,
      protected: withheld,
      longLines: 0,
      skips: skips.counts(),
    },
    confirmed.unchecked > 0
      ? [`${confirmed.unchecked} path(s) were not shown because the time budget ran out while they were being checked.`]
      : [],
  );
}
