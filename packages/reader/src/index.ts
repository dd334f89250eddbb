/** The converted-document cache, shareable between readers. */
export { DocumentCache, type DocumentCacheOptions } from './document-cache.js';
/** The pure handler and its options. */
export { handleReader } from './handle-reader.js';
/** Limits with their defaults. */
export { DEFAULT_READER_LIMITS, type ReaderLimits } from './limits.js';
export type { ReaderOptions } from './reader-options.js';
/** Remote-document hooks: the resolver signature and the test-only fetch policy. */
export type { FetchPolicy, Resolver } from './remote/fetch-remote.js';
/** Request and response schemas of the reader tool. */
export {
  ReaderFailure,
  ReaderImageSuccess,
  ReaderListSuccess,
  ReaderManySuccess,
  ReaderRequest,
  ReaderResponse,
  ReaderStatSuccess,
  type ReaderTextResult,
  ReaderTextSuccess,
  type SingleReaderResponse,
} from './schema.js';
/** The tool factory and the stateless provider. */
export { createReaderTool, readerProvider } from './tool.js';
