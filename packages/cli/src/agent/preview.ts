import { type EditorInput, handleEditor } from '@bough/editor';
import type { ProtectedNamePolicy } from '@bough/workspace';

const MAX_PREVIEW_LINES = 60;
const CHANGES = new Set(['edit', 'multi_edit', 'write', 'patch', 'move', 'mkdir']);

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
): Promise<string> {
  const request = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  if (typeof request.action !== 'string' || !CHANGES.has(request.action)) return '';
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
