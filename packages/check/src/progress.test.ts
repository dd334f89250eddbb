import { makeWorkspace } from '@branchkit/test-utils';
import { describe, expect, it } from 'vitest';
import { createCodeCheckTool } from './tool.js';

describe('code_check progress', () => {
  it('reports each Python file checked through the tool context', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 4; i++) files[`pkg/m${i}.py`] = `import os\n\n\ndef f${i}():\n    return ${i}\n`;
    const ws = makeWorkspace(files);
    try {
      const updates: { completed?: number; total?: number }[] = [];
      const tool = createCodeCheckTool({ workspaceRoot: ws.root });
      const output = await tool.handler(
        { paths: ['pkg'], tool: 'ruff', max_diagnostics: 50 },
        { signal: new AbortController().signal, callId: 'p', progress: (p) => updates.push(p) },
      );
      expect(output.status).toBe('diagnostics');
      expect(updates.map((u) => u.completed)).toEqual([1, 2, 3, 4]);
      expect(updates.every((u) => u.total === 4)).toBe(true);
    } finally {
      ws.cleanup();
    }
  });
});
