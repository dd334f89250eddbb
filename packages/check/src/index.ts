/** The per-tool cache of parsed TypeScript trees and its counters. */
export { type CheckBuild, CheckCache, type CheckCacheStats } from './check-cache.js';
/** The failure-code table (`error_code` of every failure is one of these). */
export { CODE_CHECK_ERROR_CODES, type CodeCheckErrorCode } from './errors.js';
/** Text rendering of diagnostics. */
export { diagnosticLine, headline } from './format.js';
/** The pure code_check handler and its options. */
export { type CodeCheckOptions, handleCodeCheck } from './handle-check.js';
/** Limits of the tool and their defaults. */
export {
  CODE_CHECK_LIMITS,
  type CodeCheckLimits,
  DEFAULT_CODE_CHECK_LIMITS,
  resolveCodeCheckLimits,
} from './limits.js';
/** A language server's diagnostic in code_check's shape. */
export { fromLspDiagnostic } from './lsp-diagnostic.js';
/** Request and response schemas (zod), also usable as types. */
export {
  CodeCheckFailure,
  type CodeCheckInput,
  CodeCheckRequest,
  CodeCheckResponse,
  CodeCheckSuccess,
  CodeDiagnostic,
} from './schema.js';
/** Tool factory and provider. */
export { type CodeCheckToolOptions, codeCheckProvider, createCodeCheckTool } from './tool.js';
