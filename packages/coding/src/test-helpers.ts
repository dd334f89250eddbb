import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Branch, type ChatModel, type ToolCall } from '@bough/core';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import type { AnyToolSource } from './tool-sources.js';
import { type CodingToolkitOptions, codingToolkit } from './toolkit.js';

export { makeWorkspace, type TempWorkspace };

/** Identity flags so tests never depend on (or touch) a global git config. */
export const GIT_ID = ['-c', 'user.name=Test', '-c', 'user.email=test@example.invalid', '-c', 'commit.gpgsign=false'];

/** Runs git in a directory for test set-up (argv only, no shell). */
export function gitSync(cwd: string, ...args: string[]): string {
  return execFileSync('git', [...GIT_ID, ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Makes the workspace a git repository on `branch` with one commit of its current files. */
export function initRepo(root: string, branch = 'dev'): void {
  gitSync(root, 'init', '-q', '-b', branch);
  gitSync(root, 'add', '-A');
  gitSync(root, 'commit', '-q', '--allow-empty', '-m', 'initial');
}

/** sha256 of a file on disk. */
export function sha(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** A branch on a workspace with the toolkit registered. */
export function toolkitBranch(
  root: string,
  options: CodingToolkitOptions = {},
  extra: { model?: ChatModel; sources?: readonly AnyToolSource[] } = {},
): Branch {
  const branch = new Branch({ workspaceRoot: root, system: 'test', ...(extra.model ? { model: extra.model } : {}) });
  branch.registerTools(extra.sources ? codingToolkit(options, extra.sources) : codingToolkit(options));
  return branch;
}

/** Runs one call through `branch.act` and returns its output as a plain record. */
export async function call(branch: Branch, name: string, args: unknown): Promise<Record<string, unknown>> {
  const done: ToolCall = await branch.act({ name, arguments: args });
  return done.output as Record<string, unknown>;
}
