import { defineTool, type Provider, statelessProvider, type Tool } from '@bough/core';
import type { Workspace } from '@bough/workspace';
import { type EditorOptions, handleEditor, openEditorWorkspace } from './handle-editor.js';
import { resolveEditorLimits } from './limits.js';
import { editorModelText, editorSummary } from './render.js';
import { EditorRequest, EditorResponse } from './schema.js';
import { editorTouches } from './touches.js';

// Lean on purpose (it is sent with every request): the actions and the habits that make edits land. How a near
// miss was recovered, the closest lines of a failed match and the encoding rules are said by the answers.
const DESCRIPTION = [
  'Change files in the workspace. edit: replace old_string, which must match once (or replace_all). multi_edit:',
  "several edits to one file. patch: several files ('*** Begin Patch' format or a unified diff). write: create or",
  'replace a whole file. move: file_path to destination. mkdir. Each call is all or nothing; dry_run shows the diff',
  'without writing. Read a file before editing; copy old_string without the row prefixes. A near miss (whitespace,',
  'indentation, quotes) matches when only one place fits (exact turns that off); a failed match names the closest lines.',
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
        parsedBy: context.parsedBy,
      });
    },
  });
}

/** A stateless provider handing out the `editor` tool. */
export function editorProvider(options: EditorOptions): Provider {
  return statelessProvider('editor', () => [createEditorTool(options)]);
}
