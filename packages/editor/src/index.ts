/** Miss-report candidate shape returned with `not_found_in_file`. */
export type { Candidate } from './candidate.js';
/** The failure-code table (`error_code` of every failure is one of these). */
export { EDITOR_ERROR_CODES, type EditorErrorCode } from './errors.js';
/** What a caller that reads files around the editor can share with it per call (the coding toolkit's guard does). */
export type { EditorFileExchange, KnownFile } from './file-exchange.js';
/** The pure handler and its options. */
export { type EditorOptions, handleEditor } from './handle-editor.js';
/** Limits with their defaults. */
export { DEFAULT_EDITOR_LIMITS, EDITOR_LIMITS, type EditorLimits } from './limits.js';
/** The files a patch names, read by the editor's own patch parser (for guards that check paths first). */
export { type PatchFile, type PatchFiles, patchFiles } from './patch-files.js';
/** The request schema and the response schemas of the editor tool. */
export {
  type EditorActionFields,
  EditorEditSuccess,
  EditorFailure,
  type EditorFieldsFor,
  type EditorInput,
  EditorRequest,
  EditorResponse,
  type EditorResponseFor,
  EditorWriteSuccess,
} from './schema.js';
/** The project's one line diff, for code that shows or maps a change (editor's own declarations over the shared implementation). */
export { type ChangedLines, changedLines, unifiedTextDiff } from './text-diff.js';
/** The tool factory and the stateless provider. */
export { createEditorTool, editorProvider } from './tool.js';
export { editorTouches } from './touches.js';
