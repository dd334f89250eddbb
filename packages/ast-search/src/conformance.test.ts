import { describeToolConformance } from '@bough/test-utils';
import { createAstSearchTool } from './tool.js';

describeToolConformance('ast_search', {
  makeTool: (ws) => createAstSearchTool({ workspaceRoot: ws.root }),
  setup: (ws) => {
    ws.write('a.py', 'print(1)\n');
  },
  validRequest: () => ({ pattern: 'print($A)' }),
  invalidRequests: [{}, { pattern: 1 }, { pattern: 'x', extra: true }, { pattern: 'x', max_results: 501 }, null],
  escapeRequests: (ws) => [
    { pattern: '$A', path: '..' },
    { pattern: '$A', path: ws.outside },
    { pattern: '$A', path: `${ws.outside}/secret.txt` },
    { pattern: '$A', path: '../ws-evil/secret.txt' },
  ],
  touchCases: () => [
    { request: { pattern: '$A', path: '' }, touches: { read: ['.'], workspace: true } },
    { request: { pattern: '$A', path: 'lib' }, touches: { read: ['lib'] } },
  ],
});
