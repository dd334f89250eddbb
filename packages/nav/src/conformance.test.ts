import { describeToolConformance } from '@bough/test-utils';
import { createCodeNavTool } from './tool.js';

describeToolConformance('code_nav', {
  makeTool: (ws) => createCodeNavTool({ workspaceRoot: ws.root }),
  setup: (ws) => {
    ws.write('a.py', 'def f():\n    pass\n');
  },
  validRequest: () => ({ action: 'outline', path: 'a.py' }),
  invalidRequests: [
    {},
    { action: 'move', path: 'a.py' },
    { action: 'outline', path: 5 },
    { action: 'outline', path: 'a.py', x: 1 },
    null,
  ],
  escapeRequests: (ws) => [
    { action: 'outline', path: '..' },
    { action: 'outline', path: `${ws.outside}/secret.txt` },
    { action: 'find_references', path: '../ws-evil', symbol: 'x' },
  ],
  touchCases: () => [
    { request: { action: 'outline' }, touches: { read: ['.'], workspace: true } },
    { request: { action: 'outline', path: 'src/a.py' }, touches: { read: ['src/a.py'] } },
  ],
});
