import { makeWorkspace } from '@bough/test-utils';
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

  it('checks files read ahead in order and reports an oversized one among them as skipped', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++)
      files[`pkg/m${String(i).padStart(2, '0')}.py`] = `import os\n\n\ndef f${i}():\n    return ${i}\n`;
    files['pkg/m07.py'] = `import os\n${'x = 1\n'.repeat(200)}`;
    const ws = makeWorkspace(files);
    try {
      const updates: { completed?: number }[] = [];
      const tool = createCodeCheckTool({ workspaceRoot: ws.root, limits: { maxFileBytes: 400 } });
      const output = await tool.handler(
        { paths: ['pkg'], tool: 'ruff', max_diagnostics: 50 },
        { signal: new AbortController().signal, callId: 'p', progress: (p) => updates.push(p) },
      );
      expect(output).toMatchObject({ files_checked: 19, total: 19, skipped: { too_large: 1 } });
      expect(output.diagnostics.map((d) => d.file)).not.toContain('pkg/m07.py');
      expect(output.summary).toContain('pkg/m07.py skipped');
      expect(updates.map((u) => u.completed)).toEqual([
        ...Array.from({ length: 7 }, (_, i) => i + 1),
        ...Array.from({ length: 12 }, (_, i) => i + 9),
      ]);
    } finally {
      ws.cleanup();
    }
  });
});
