import { describeToolConformance } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { requestSchemaFor } from './handle-search.js';
import { DEFAULT_SEARCH_LIMITS, resolveSearchLimits } from './limits.js';
import { createSearchTool, searchProvider } from './tool.js';

describeToolConformance('search', {
  makeTool: (ws) => createSearchTool({ workspaceRoot: ws.root }),
  setup: (ws) => {
    ws.write('notes.md', 'hello world\n');
  },
  validRequest: () => ({ action: 'grep', pattern: 'hello' }),
  invalidRequests: [
    {},
    { action: 'grep' },
    { action: 'grep', pattern: 'x', max_results: 0 },
    { action: 'find', pattern: '*', max_results: -1 },
    { action: 'grep', pattern: 'x', max_results: 2.5 },
    { action: 'grep', pattern: 'x', allow_follow: true },
  ],
  escapeRequests: (ws) => [
    { action: 'grep', pattern: 'CANARY', path: '../ws-evil' },
    { action: 'grep', pattern: 'CANARY', path: ws.outside },
    { action: 'find', pattern: '*', path: '../ws-evil' },
    { action: 'find', pattern: '*', path: '/' },
  ],
  touchCases: () => [
    { request: { action: 'grep', pattern: 'x', path: 'src' }, touches: { read: ['src'] } },
    { request: { action: 'find', pattern: '*', path: '' }, touches: { read: ['.'], workspace: true } },
  ],
});

describe('search tool', () => {
  it('has one default per action, in the limits the coding toolkit shares', () => {
    expect([DEFAULT_SEARCH_LIMITS.grepResults, DEFAULT_SEARCH_LIMITS.findResults]).toEqual([50, 100]);
  });

  it('builds the schema for configured limits once, so every call uses the schema its tool was built with', () => {
    const limits = resolveSearchLimits({ maxResults: 20 });
    const tool = createSearchTool({ workspaceRoot: '/', limits });
    expect(requestSchemaFor(limits)).toBe(tool.request);
    expect(requestSchemaFor(resolveSearchLimits(limits))).toBe(tool.request);
    expect(tool.request.safeParse({ action: 'grep', pattern: 'x', max_results: 21 }).success).toBe(false);
  });

  it('is handed out by a stateless provider', () => {
    const provider = searchProvider({ workspaceRoot: '/' });
    expect(provider.build({} as never).map((tool) => tool.name)).toEqual(['search']);
  });
});
