import type { ToolFailure } from '@bough/core';
import { type DialectFailure, dialectFailure } from './dialect-failure.js';

/**
 * How the Anthropic text editor tool's results read. Anthropic documents the shape of a `view` (rows prefixed
 * `N: `) and the error texts for a missing file, no match, several matches and a refused write; models were trained
 * on those, so the first line of each failure is that text, and bough's own detail (closest lines, match lines)
 * follows on the next lines.
 */

/** Failure codes a path refusal or a policy denial carries. */
const REFUSED = new Set(['denied', 'protected_path', 'outside_workspace', 'symlink_rejected', 'special_file']);

/** A failure of the reader, the editor or the guard, worded as the text editor tool's error text. */
export function textEditorError(failure: ToolFailure, forWrite: boolean): DialectFailure {
  return dialectFailure(errorText(failure, forWrite), failure.error_code);
}

function errorText(failure: ToolFailure, forWrite: boolean): string {
  const detail = failure.error;
  switch (failure.error_code) {
    case 'not_found':
      return 'Error: File not found';
    case 'not_found_in_file':
      return `Error: No match found for replacement. Please check your text and try again.\n${detail}`;
    case 'multiple_matches': {
      const count = (failure as { match_count?: unknown }).match_count;
      const lines = (failure as { match_lines?: unknown }).match_lines;
      const where = Array.isArray(lines) ? `\nThe matches start at lines ${lines.join(', ')}.` : '';
      return `Error: Found ${typeof count === 'number' ? count : 'several'} matches for replacement text. Please provide more context to make a unique match.${where}`;
    }
    default:
      if (REFUSED.has(failure.error_code)) {
        return `Error: Permission denied. ${forWrite ? 'Cannot write to file. ' : ''}${detail}`;
      }
      return `Error: ${detail}`;
  }
}

/** Turns the reader's `N<TAB>text` rows into the `N: text` rows the text editor's `view` shows. */
export function viewRows(content: string): string {
  return content.replace(/^(\d+)\t/gm, '$1: ');
}

/** Cuts a view to `maxCharacters` (the tool's `max_characters` setting), as the text editor documents. */
export function capCharacters(text: string, maxCharacters: number | undefined): string {
  if (maxCharacters === undefined || !Number.isFinite(maxCharacters) || maxCharacters <= 0) return text;
  return text.length > maxCharacters ? text.slice(0, maxCharacters) : text;
}
