import { quotePath, type WorkspaceFailure, workspaceFailure } from '../errors.js';
import type { WorkspaceLimits } from '../limits.js';

/** Rejects strings that cannot be a sensible workspace path before any filesystem call is made. */
export function lexicalCheck(input: unknown, limits: WorkspaceLimits): WorkspaceFailure | undefined {
  if (typeof input !== 'string' || input.length === 0) {
    return workspaceFailure(
      'invalid_path',
      'The path is empty. Pass a path relative to the workspace root, e.g. "src/index.ts".',
    );
  }
  if (input.trim() === '') {
    // Never trimmed to the root nor created as a file named "   ": a blank path is a mistake everywhere.
    return workspaceFailure(
      'invalid_path',
      'The path is only whitespace. Pass a path relative to the workspace root, or "." for the root itself.',
    );
  }
  if (input.includes('\0')) {
    return workspaceFailure(
      'invalid_path',
      'The path contains a NUL character, which no file name can hold. Remove it and retry.',
    );
  }
  if (input.length > limits.maxPathLength) {
    return workspaceFailure(
      'invalid_path',
      `The path is ${input.length} characters long; the limit is ${limits.maxPathLength}. Use a shorter path.`,
    );
  }
  if (input === '~' || input.startsWith('~/')) {
    return workspaceFailure(
      'invalid_path',
      `${quotePath(input)} uses "~", which is not expanded here. Pass a path relative to the workspace root instead.`,
    );
  }
  for (const part of input.split(/[\\/]/u)) {
    if (Buffer.byteLength(part, 'utf8') > limits.maxNameBytes) {
      return workspaceFailure(
        'invalid_path',
        `One component of ${quotePath(input)} is longer than ${limits.maxNameBytes} bytes, which no filesystem accepts. Shorten it.`,
      );
    }
  }
  return undefined;
}
