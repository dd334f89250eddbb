/** The converted-document cache, shareable between readers. */
export { DocumentCache, type DocumentCacheOptions } from './document-cache.js';
/** The failure-code table (`error_code` of every failure is one of these). */
export { READER_ERROR_CODES, type ReaderErrorCode } from './errors.js';
/** The pure handler and its options. */
export { handleReader } from './handle-reader.js';
/** Limits with their defaults. */
export { DEFAULT_READER_LIMITS, READER_LIMITS, type ReaderLimits } from './limits.js';
export type { ReaderOptions } from './reader-options.js';
/** Remote-document hooks: the resolver signature and the fetch policy. */
export type { FetchPolicy, Resolver } from './remote/fetch-remote.js';
/** Request and response schemas of the reader tool. */
export {
  ReaderFailure,
  ReaderImageSuccess,
  type ReaderInput,
  ReaderListSuccess,
  ReaderManySuccess,
  ReaderRequest,
  ReaderResponse,
  type ReaderResponseFor,
  ReaderStatSuccess,
  type ReaderSuccessByAction,
  type ReaderTextResult,
  ReaderTextSuccess,
  type SingleReaderResponse,
} from './schema.js';
/** The tool factory and the stateless provider. */
export { createReaderTool, readerProvider } from './tool.js';
