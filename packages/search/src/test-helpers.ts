import type { TempWorkspace } from '@bough/test-utils';
import { expect } from 'vitest';
import { handleSearch, type SearchCallOptions } from './handle-search.js';
import type { SearchInput, SearchResponse, SearchResult } from './schema.js';

/** Runs a search against a temp workspace. */
export function searchIn(ws: TempWorkspace, request: unknown, extra: Partial<SearchCallOptions> = {}) {
  return handleSearch(request as SearchInput, { workspaceRoot: ws.root, ...extra });
}

/** Asserts a successful search and narrows its type. */
export function ok(response: SearchResponse): SearchResult {
  if (!response.success) throw new Error(`expected success, got ${JSON.stringify(response)}`);
  return response;
}

/** Asserts a typed failure with the given code. */
export function refused(response: SearchResponse, code: string): void {
  expect(response).toMatchObject({ success: false, error_code: code });
}
