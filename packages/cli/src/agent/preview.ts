import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { type EditorInput, handleEditor } from '@bough/editor';

const MAX_PREVIEW_LINES = 60;
const MAX_PREVIEW_BYTES = 4 * 1024 * 1024;

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
 * The diff an editor call would make, for the approval prompt. The editor's own handler runs against a private copy
 * of the one file in a temporary directory, so the preview is exactly what the edit does and the workspace is not
 * touched. (When the editor's `dry_run` lands, this becomes one `dry_run: true` call.) A write of an existing file
 * is previewed as an edit of its whole text. Returns '' when no preview can be made; the arguments are shown anyway.
 */
export async function changePreview(args: unknown, root: string): Promise<string> {
  const request = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  const path = typeof request.file_path === 'string' ? request.file_path : undefined;
  if (!path || (request.action !== 'edit' && request.action !== 'write')) return '';
  const target = resolve(root, path);
  const inside = relative(root, target);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside))
    return '  (the file is outside the workspace: no preview)\n';
  let real: string | undefined;
  try {
    real = existsSync(target) ? realpathSync(target) : undefined;
  } catch {
    return '';
  }
  const realInside = real ? relative(realpathSync(root), real) : inside;
  if (realInside.startsWith('..') || isAbsolute(realInside))
    return '  (the file is outside the workspace: no preview)\n';
  const scratch = mkdtempSync(join(tmpdir(), 'bough-preview-'));
  try {
    const copy = join(scratch, inside);
    mkdirSync(dirname(copy), { recursive: true });
    let before: string | undefined;
    if (real) {
      const bytes = readFileSync(real);
      if (bytes.byteLength > MAX_PREVIEW_BYTES) return '  (the file is too large to preview)\n';
      before = bytes.toString('utf8');
      writeFileSync(copy, bytes);
    }
    if (request.action === 'write' && before === undefined) {
      const content = typeof request.content === 'string' ? request.content : '';
      return `  new file ${inside}:\n${indent(
        content
          .split('\n')
          .map((line) => `+${line}`)
          .join('\n'),
      )}`;
    }
    const preview =
      request.action === 'write'
        ? { action: 'edit', file_path: inside, old_string: before, new_string: request.content }
        : { ...request, file_path: inside };
    if (request.action === 'write' && before === request.content) return '  (the file already has this content)\n';
    const result = (await handleEditor(preview as EditorInput, { workspaceRoot: scratch })) as {
      success: boolean;
      diff?: string;
      error?: string;
    };
    if (!result.success) return `  (the edit would fail: ${result.error ?? 'unknown error'})\n`;
    return result.diff ? indent(result.diff) : '';
  } catch {
    return '';
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
