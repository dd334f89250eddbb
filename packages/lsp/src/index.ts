/** The language-server client and its options. */

/** The failure-code table (`error_code` of every failure is one of these). */
export { LSP_ERROR_CODES, type LspErrorCode, type LspFailure } from './errors.js';
/** Limits of the client and their defaults. */
export { DEFAULT_LSP_LIMITS, LSP_LIMITS, type LspLimits, resolveLspLimits } from './limits.js';
export { type LspCallOptions, LspClient, type LspClientOptions } from './lsp-client.js';
/** Result shapes (positions are the protocol's: 0-based line and UTF-16 character). */
export type {
  LspDiagnostic,
  LspDiagnosticsResult,
  LspHoverResult,
  LspLocation,
  LspLocationsResult,
  LspOtherDiagnosticsResult,
  LspOutlineResult,
  LspPosition,
  LspRange,
  LspRenamedFile,
  LspRenameResult,
  LspServerStatus,
  LspSymbol,
  LspWorkspaceSymbol,
  LspWorkspaceSymbolsResult,
} from './results.js';
/** Which server answers for which files, with the defaults. */
export { DEFAULT_LANGUAGE_SERVERS, type LanguageServerConfig, mergeServers, serverFor } from './servers.js';
