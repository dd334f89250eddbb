import { quotePath, type WorkspaceFailure, workspaceFailure } from '../errors.js';
import type { PathIntent } from '../resolved-path.js';
import type { ResolvedDetail } from './resolver.js';

/** Turns a kind that cannot serve the intent into a failure that tells the model which tool or path to use. */
export function applyIntent(
  detail: ResolvedDetail,
  input: string,
  intent: PathIntent,
): ResolvedDetail | WorkspaceFailure {
  const q = quotePath(input);
  if (detail.kind === 'other') {
    return workspaceFailure(
      'special_file',
      `${q} is a device, pipe or socket, not a regular file; tools only work with regular files and directories.`,
    );
  }
  const slash = input.endsWith('/');
  if (intent === 'write') {
    if (detail.kind === 'directory' || slash) {
      return workspaceFailure('not_a_file', `${q} is a directory; give the path of a file inside it.`);
    }
    return detail;
  }
  if (detail.kind === 'missing') {
    return workspaceFailure(
      'not_found',
      `Nothing exists at ${q}. Check the spelling, or list the parent directory to see what is there.`,
    );
  }
  if ((intent === 'list' || slash) && detail.kind !== 'directory') {
    return workspaceFailure('not_a_directory', `${q} is a file, not a directory; read it instead of listing it.`);
  }
  return detail;
}
