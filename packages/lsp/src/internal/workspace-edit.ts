import { unifiedTextDiff } from '@bough/workspace/internal';
import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol/node';
import type { LspRange } from '../results.js';
import { relativeOf } from './convert.js';

/** The text edits a workspace edit makes, by workspace-relative file, and what it asks that a patch cannot say. */
export interface PlannedEdits {
  readonly byFile: Map<string, TextEdit[]>;
  /** Files outside the workspace the server wanted to change. */
  readonly outside: number;
  /** Creations, renames or deletions of files the server asked for (not applied). */
  readonly fileOperations: number;
}

/** Groups a `WorkspaceEdit` (either of its two shapes) by workspace-relative file. */
export function planEdits(root: string, edit: WorkspaceEdit | null): PlannedEdits {
  const byFile = new Map<string, TextEdit[]>();
  let outside = 0;
  let fileOperations = 0;
  const add = (uri: string, edits: readonly TextEdit[]) => {
    const file = relativeOf(root, uri);
    if (file === undefined) {
      outside++;
      return;
    }
    byFile.set(file, [...(byFile.get(file) ?? []), ...edits]);
  };
  if (edit?.documentChanges) {
    for (const change of edit.documentChanges) {
      if ('textDocument' in change)
        add(
          change.textDocument.uri,
          change.edits.filter((e): e is TextEdit => 'range' in e),
        );
      else fileOperations++;
    }
  } else if (edit?.changes) {
    for (const [uri, edits] of Object.entries(edit.changes)) add(uri, edits);
  }
  return { byFile, outside, fileOperations };
}

/** Offset of a protocol position (0-based line, UTF-16 character) in `text`; past the end clamps to it. */
function offsetOf(text: string, starts: readonly number[], position: LspRange['start']): number {
  const lineStart = starts[position.line];
  if (lineStart === undefined) return text.length;
  const next = starts[position.line + 1] ?? text.length;
  return Math.min(lineStart + position.character, next);
}

/** The text after applying `edits` (non-overlapping, as the protocol requires) to `text`. */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  const spans = edits
    .map((e) => ({
      from: offsetOf(text, starts, e.range.start),
      to: offsetOf(text, starts, e.range.end),
      text: e.newText,
    }))
    .sort((a, b) => b.from - a.from || b.to - a.to);
  let out = text;
  for (const span of spans) out = out.slice(0, span.from) + span.text + out.slice(span.to);
  return out;
}

/**
 * One file's change as a git-style unified diff (`--- a/file`, `+++ b/file`), made by the project's one line diff
 * (shared through `@bough/workspace/internal`) so the editor's `patch` action applies it as is.
 */
export function unifiedDiff(file: string, before: string, after: string): string {
  return unifiedTextDiff(before, after, { old: `a/${file}`, new: `b/${file}` });
}
