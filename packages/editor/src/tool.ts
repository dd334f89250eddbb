import { defineTool, type Provider, statelessProvider, type Tool } from '@bough/core';
import type { Workspace } from '@bough/workspace';
import { type EditorOptions, handleEditor, openEditorWorkspace } from './handle-editor.js';
import { resolveEditorLimits } from './limits.js';
import { editorModelText, editorSummary } from './render.js';
import { EditorRequest, EditorResponse } from './schema.js';
import { editorTouches } from './touches.js';

const DESCRIPTION = [
  'Create, change, move or make files and directories inside the workspace. Pick the action:',
  "'edit' for one change in a file (old_string must match once, or set replace_all);",
  "'multi_edit' for several changes to one file in one call ('edits': [{old_string, new_string, replace_all?}], applied in",
  'order, each to the result of the ones before; if any fails nothing is written and edit_index names it);',
  "'patch' to change several files at once, all or nothing ('patch': '*** Begin Patch' with Add File / Update File",
  "(optional Move to) / Delete File and '@@' hunks, or a git/unified diff; every hunk must match exactly once or",
  'loosely at one place; the response lists each file with add/update/delete/move and line counts);',
  "'write' to create a file or replace most of it ('content'; parents are created; an existing file keeps its mode,",
  'BOM/UTF-16 encoding and CRLF endings);',
  "'move' to rename ('file_path' to 'destination'; refuses an existing destination unless overwrite); 'mkdir' for a directory.",
  'dry_run: true on any of them runs every check and returns the same response with the diff, writing nothing.',
  "Copy old_string from a fresh read WITHOUT the '<number><TAB>' prefixes of reader rows. LF in old_string matches CRLF files.",
  'When the exact text is not found, a near miss is recovered only if exactly one place matches loosely (trailing',
  'whitespace, one consistent indentation shift, curly quotes/dashes/non-breaking spaces, literal \\n or \\t, copied',
  "line-number prefixes); the response's strategy says how it matched; exact: true turns that off.",
  "On 'not_found_in_file' the response names the likely cause and the closest lines with their line numbers: re-read",
  "those lines and retry. On 'multiple_matches' or 'ambiguous_match' add surrounding lines. Files that are not UTF-8",
  "(or UTF-16 with a BOM) are refused with 'unsupported_encoding' rather than corrupted.",
].join(' ');

/**
 * Builds the `editor` tool; the workspace is opened once on first use and shared by later calls. Limits are resolved
 * here, once: a bad override throws a `ConfigurationError` naming the key.
 */
export function createEditorTool(options: EditorOptions): Tool<EditorRequest, EditorResponse> {
  const limits = resolveEditorLimits(options.limits);
  let shared: Promise<Workspace> | undefined;
  const workspace = (): Promise<Workspace> => {
    shared ??= openEditorWorkspace(options).catch((error: unknown) => {
      shared = undefined;
      throw error;
    });
    return shared;
  };
  return defineTool({
    name: 'editor',
    description: DESCRIPTION,
    request: EditorRequest,
    response: EditorResponse,
    scope: 'stateless',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    touches: editorTouches,
    toModelText: editorModelText,
    summarize: editorSummary,
    handler: async (request, context) => {
      let ws: Workspace | undefined;
      try {
        ws = await workspace();
      } catch {
        ws = undefined; // handleEditor reports the unusable root as a failure value
      }
      return handleEditor(request, {
        ...options,
        limits,
        ...(ws ? { workspace: ws } : {}),
        signal: context.signal,
        callId: context.callId,
      });
    },
  });
}

/** A stateless provider handing out the `editor` tool. */
export function editorProvider(options: EditorOptions): Provider {
  return statelessProvider('editor', () => [createEditorTool(options)]);
}
