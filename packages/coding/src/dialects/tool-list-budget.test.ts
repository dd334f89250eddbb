import { countTokens } from '@bough/context';
import { type Tool, toMcpTool } from '@bough/core';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolkitBranch } from '../../test/helpers.js';
import { dialectTools } from './profiles.js';

// The tools `bough mcp` serves by default: the toolkit's without `context`, with `jobs`.
const SERVED = ['reader', 'editor', 'bash', 'search', 'code_check', 'code_nav', 'ast_search', 'jobs'];

/** o200k tokens of what a client shows a model of a tool list: name, description and input schema of each tool. */
const shownTokens = (tools: readonly Tool[]) =>
  countTokens(
    JSON.stringify(
      tools.map((tool) => {
        const { name, description, inputSchema } = toMcpTool(tool);
        return { name, description, inputSchema };
      }),
    ),
  );

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'a\n' });
});
afterEach(() => ws.cleanup());

describe('what the tool lists cost a model before its first call', () => {
  it('the default toolkit list stays within 2,000 o200k tokens', () => {
    const tools = toolkitBranch(ws.root, { tools: SERVED }).registry.list();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...SERVED].sort());
    expect(shownTokens(tools)).toBeLessThanOrEqual(2_000);
  });

  it('the minimal profile stays within 800, with aliases accepted but not advertised', () => {
    const toolkit = toolkitBranch(ws.root).registry;
    const tools = dialectTools('minimal', toolkit);
    expect(shownTokens(tools)).toBeLessThanOrEqual(800);
    const fields = tools.flatMap((tool) => Object.keys(toMcpTool(tool).inputSchema.properties as object));
    expect([...new Set(fields)].sort()).toEqual(
      [
        'command',
        'content',
        'file_path',
        'limit',
        'new_string',
        'offset',
        'old_string',
        'replace_all',
        'timeout',
      ].sort(),
    );
  });
});
