import { Branch, ScriptedChatModel, type Tool, textReply } from '@bough/core';
import { describeToolConformance, initRepo } from '@bough/test-utils';
import { codingToolkit } from './toolkit.js';

function toolkitTool(root: string, name: string): Tool {
  const model = new ScriptedChatModel(Array.from({ length: 10 }, () => textReply('done')));
  const branch = new Branch({ workspaceRoot: root, model });
  branch.registerTools(
    codingToolkit({ tools: [name, 'bash'], notify: false, sandbox: { identity: { name: 't', email: 't@x.invalid' } } }),
  );
  return branch.registry.get(name) as Tool;
}

describeToolConformance('sandbox', {
  makeTool: (ws) => toolkitTool(ws.root, 'sandbox'),
  setup: (ws) => {
    ws.write('a.txt', 'a\n');
    initRepo(ws.root);
  },
  validRequest: () => ({ action: 'create' }),
  invalidRequests: [{}, { action: 'explode' }, { action: 'commit', message: 1 }, { action: 'diff', extra: true }],
});

describeToolConformance('subagent', {
  makeTool: (ws) => toolkitTool(ws.root, 'subagent'),
  setup: (ws) => ws.write('sub/a.txt', 'a\n'),
  validRequest: () => ({ instruction: 'say done', cwd: 'sub' }),
  invalidRequests: [
    {},
    { instruction: '' },
    { instruction: 'x', max_turns: 0 },
    { instruction: 'x', permissions: 'root' },
    { instruction: 'x', extra: 1 },
  ],
  escapeRequests: (ws) => [
    { instruction: 'x', cwd: '..' },
    { instruction: 'x', cwd: '../ws-evil' },
    { instruction: 'x', cwd: ws.outside },
  ],
});
