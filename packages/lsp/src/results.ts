/** A position in a document: 0-based line and 0-based UTF-16 character, as the protocol counts. */
export interface LspPosition {
  readonly line: number;
  readonly character: number;
}

/** A range in a document, end exclusive, in protocol positions. */
export interface LspRange {
  readonly start: LspPosition;
  readonly end: LspPosition;
}

/** A place in a workspace file, its path relative to the workspace root (posix separators). */
export interface LspLocation {
  readonly file: string;
  readonly range: LspRange;
}

/** One symbol of a document outline; nested symbols come flat, naming their `container`. */
export interface LspSymbol {
  readonly name: string;
  /** The protocol's symbol kind in lower case: `function`, `method`, `struct`, `class`, `variable`, … */
  readonly kind: string;
  /** The server's detail text (often a signature or type). */
  readonly detail?: string;
  /** The enclosing symbol's name, for members. */
  readonly container?: string;
  readonly range: LspRange;
  /** The range of the name itself: where definition, references and hover should be asked. */
  readonly selectionRange: LspRange;
}

/** A symbol found by a workspace-wide query. */
export interface LspWorkspaceSymbol {
  readonly name: string;
  readonly kind: string;
  readonly container?: string;
  readonly location: LspLocation;
}

/** One diagnostic a server published. */
export interface LspDiagnostic {
  readonly range: LspRange;
  readonly severity: 'error' | 'warning' | 'info' | 'hint';
  readonly code?: string;
  readonly message: string;
  /** Which tool of the server produced it (`compiler`, `typecheck`, `clang`, …), when it says. */
  readonly source?: string;
}

/** Diagnostics of one file, for the version of its text on disk when the call was made. */
export interface LspDiagnosticsResult {
  readonly success: true;
  readonly file: string;
  /** The document version the client sent for the text it read. */
  readonly version: number;
  /**
   * True when the server published diagnostics for exactly that version (or for a newer one) within the wait;
   * false when the wait ran out and these are the latest older ones (see `note`).
   */
  readonly fresh: boolean;
  readonly diagnostics: LspDiagnostic[];
  readonly note?: string;
}

/** Locations an answer named, with the count of those outside the workspace (standard library, system headers). */
export interface LspLocationsResult {
  readonly success: true;
  readonly locations: LspLocation[];
  /** Locations outside the workspace root; they are counted, never returned. */
  readonly outside: number;
}

/** A document outline. */
export interface LspOutlineResult {
  readonly success: true;
  readonly file: string;
  readonly symbols: LspSymbol[];
}

/** Symbols a workspace-wide query found inside the workspace. */
export interface LspWorkspaceSymbolsResult {
  readonly success: true;
  readonly symbols: LspWorkspaceSymbol[];
  readonly outside: number;
}

/** Hover text at a position (empty when the server has nothing to say). */
export interface LspHoverResult {
  readonly success: true;
  readonly text: string;
}

/** One file a rename changes: the ranges replaced, as they are in the text before the rename. */
export interface LspRenamedFile {
  readonly file: string;
  readonly ranges: readonly LspRange[];
}

/** A rename the server planned and nothing applied: the files it changes and one unified diff of them all. */
export interface LspRenameResult {
  readonly success: true;
  readonly files: readonly LspRenamedFile[];
  /** Git-style unified diff (`--- a/…`, `+++ b/…`) of every changed file; empty when the rename changes nothing. */
  readonly patch: string;
  /** Said when the server also wanted changes the patch leaves out (files outside the workspace, file moves). */
  readonly note?: string;
}

/** Diagnostics the server of a file published for the other files it checks (callers of what changed, …). */
export interface LspOtherDiagnosticsResult {
  readonly success: true;
  /** Each other workspace file with its latest published diagnostics (files with none included, as an empty list). */
  readonly files: ReadonlyArray<{ readonly file: string; readonly diagnostics: readonly LspDiagnostic[] }>;
  /** False when the server was still publishing when the wait ended; the lists may then miss its last answers. */
  readonly settled: boolean;
}

/** A running server of a client, for status displays and memory reports. */
export interface LspServerStatus {
  readonly server: string;
  readonly pid: number;
  /** Resident memory of the server's whole process group in bytes (Linux; undefined where /proc is absent). */
  readonly rssBytes?: number;
  readonly openDocuments: number;
  readonly idleMs: number;
}
