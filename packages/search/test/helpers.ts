import { expectFailure, expectSuccess, type TempWorkspace } from '@bough/test-utils';
import type { SearchErrorCode } from '../src/errors.js';
import { handleSearch, type SearchCallOptions } from '../src/handle-search.js';
import type { SearchInput, SearchResponse, SearchResult } from '../src/schema.js';

// Test helpers of this package only; they live beside src/ so no build or published file can carry them.

/** Runs a search against a temp workspace (the request is passed through unchecked, as a model would send it). */
export function searchIn(ws: TempWorkspace, request: unknown, extra: Partial<SearchCallOptions> = {}) {
  return handleSearch(request as SearchInput, { workspaceRoot: ws.root, ...extra });
}

/** Asserts a successful search and narrows its type. */
export const ok: (response: SearchResponse) => SearchResult = expectSuccess;

/** Asserts a typed failure with one of search's codes. */
export const refused: (response: SearchResponse, code: SearchErrorCode) => void = expectFailure;
