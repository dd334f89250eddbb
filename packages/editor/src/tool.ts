import { defineTool, type Provider, statelessProvider, type Tool } from '@bough/core';
import type { Workspace } from '@bough/workspace';
import { type EditorOptions, handleEditor, openEditorWorkspace } from './handle-editor.js';
import { EditorRequest, EditorResponse } from './schema.js';

const DESCRIPTION = [
  'Create, overwrite or edit a text file inside the workspace.',
  "action 'write' replaces the whole file with 'content' (parents are created; an existing file keeps its mode, BOM/UTF-16 encoding and CRLF endings).",
  "action 'edit' replaces 'old_string' with 'new_string'; old_string must match the file exactly once",
  "(or set replace_all). Copy it from a fresh read WITHOUT the '<number><TAB>' prefixes of reader rows.",
  'Line endings do not need to match: LF in old_string also matches CRLF files, and the replacement keeps the file style.',
  "On 'not_found_in_file' the response names the likely cause and the closest lines with their line numbers: re-read",
  "those lines and retry. On 'multiple_matches' add surrounding lines or use replace_all. Files that are not UTF-8",
  "(or UTF-16 with a BOM) are refused with 'unsupported_encoding' rather than corrupted.",
].join(' ');

/** Builds the `editor` tool; the workspace is opened once on first use and shared by later calls. */
export function createEditorTool(options: EditorOptions): Tool<EditorRequest, EditorResponse> {
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
    handler: async (request, context) => {
      let ws: Workspace | undefined;
      try {
        ws = await workspace();
      } catch {
        ws = undefined; // handleEditor reports the unusable root as a failure value
      }
      return handleEditor(request, { ...options, ...(ws ? { workspace: ws } : {}), signal: context.signal });
    },
  });
}

/** A stateless provider handing out the `editor` tool. */
export function editorProvider(options: EditorOptions): Provider {
  return statelessProvider('editor', () => [createEditorTool(options)]);
}
