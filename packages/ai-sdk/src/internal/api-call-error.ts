// Every major of `@ai-sdk/provider` marks its APICallError with the same registered symbol and checks that marker in
// `APICallError.isInstance`, so an error from any major's provider is recognised without importing one of them
// (importing one would add a second copy of the specification package beside the user's).
const API_CALL_ERROR = Symbol.for('vercel.ai.error.AI_APICallError');

/** The fields of the AI SDK's APICallError that the adapter reads. */
export interface ApiCallError extends Error {
  readonly url: string;
  readonly statusCode?: number | undefined;
  readonly responseHeaders?: Record<string, string> | undefined;
  readonly responseBody?: string | undefined;
  readonly isRetryable: boolean;
}

/** True for an APICallError thrown by a provider of any AI SDK major. */
export function isApiCallError(error: unknown): error is ApiCallError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[API_CALL_ERROR] === true;
}
