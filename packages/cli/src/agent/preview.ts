import type { Touches } from '@bough/core';
import { type EditorInput, type EditorRequest, editorTouches, handleEditor } from '@bough/editor';
import type { ProtectedNamePolicy } from '@bough/workspace';

const MAX_PREVIEW_LINES = 60;
const MAX_PATHS = 20;

/** True when a declaration changes something: it writes, creates, deletes or moves a path. */
export function changesPaths(touches: Touches | undefined): boolean {
  return [touches?.write, touches?.create, touches?.delete, touches?.move].some((list) => (list?.length ?? 0) > 0);
}

/**
 * The paths a pending call will change, from its tool's own `touches` declaration (so a patch's files, both names of
 * a move and a checkpoint restore are named as the policy saw them): one line per kind, then whether it may reach
 * the whole workspace; '' when it declares neither.
 */
export function touchedPreview(touches: Touches | undefined): string {
  if (!touches) return '';
  const line = (verb: string, paths: readonly string[] | undefined) => {
    if (!paths || paths.length === 0) return '';
    const more = paths.length > MAX_PATHS ? ` … ${paths.length - MAX_PATHS} more` : '';
    return `  ${verb} ${paths.slice(0, MAX_PATHS).join(', ')}${more}\n`;
  };
  const moves = touches.move?.map((m) => `${m.from} → ${m.to}`);
  const whole = touches.workspace === true ? '  may reach any file in the workspace\n' : '';
  return (
    line('writes', touches.write) +
    line('creates', touches.create) +
    line('deletes', touches.delete) +
    line('moves', moves) +
    whole
  );
}

/** The editor's declaration for a request, or undefined when it is not one the editor would accept. */
function editorDeclaration(args: unknown): Touches | undefined {
  try {
    return editorTouches(args as EditorRequest);
  } catch {
    return undefined;
  }
}

function indent(text: string): string {
  const lines = text.replace(/\n$/, '').split('\n');
  const shown = lines.slice(0, MAX_PREVIEW_LINES).map((line) => `    ${colour(line)}`);
  if (lines.length > MAX_PREVIEW_LINES) shown.push(`    … ${lines.length - MAX_PREVIEW_LINES} more lines`);
  return `${shown.join('\n')}\n`;
}

function colour(line: string): string {
  if (line.startsWith('+') && !line.startsWith('+++')) return `\x1b[32m${line}\x1b[0m`;
  if (line.startsWith('-') && !line.startsWith('---')) return `\x1b[31m${line}\x1b[0m`;
  return line;
}

/**
 * What an editor call would do, for the approval prompt: the same request run by the editor with `dry_run: true`
 * against the workspace (every check runs, nothing is written), through the same protected-name policy as the
 * agent's tools. Shows the diff, the rename or the new directory; a change that would fail says why. Returns ''
 * for a call that is not a change.
 */
export async function changePreview(
  args: unknown,
  root: string,
  protectedNames?: ProtectedNamePolicy,
  touches: Touches | undefined = editorDeclaration(args),
): Promise<string> {
  const request = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  // Whether the call is a change is the editor's own declaration, not a guess from its action name.
  if (!changesPaths(touches)) return '';
  let result: Record<string, unknown>;
  try {
    result = (await handleEditor({ ...request, dry_run: true } as EditorInput, {
      workspaceRoot: root,
      ...(protectedNames ? { protectedNames } : {}),
    })) as unknown as Record<string, unknown>;
  } catch {
    return '';
  }
  if (result.success !== true) return `  (the change would fail: ${String(result.error ?? 'unknown error')})\n`;
  if (request.action === 'move') return `  rename ${String(result.from)} → ${String(result.relative)}\n`;
  if (request.action === 'mkdir')
    return result.created === false ? '  (the directory already exists)\n' : `  new directory ${result.relative}\n`;
  const diff = typeof result.diff === 'string' ? result.diff : '';
  return diff ? indent(diff) : '  (no change to the file)\n';
}
