import { describeToolConformance } from '@bough/test-utils';
import { createCodeCheckTool } from './tool.js';

describeToolConformance('code_check', {
  makeTool: (ws) => createCodeCheckTool({ workspaceRoot: ws.root }),
  setup: (ws) => {
    ws.write('a.py', 'x = 1\n');
  },
  validRequest: () => ({ paths: ['a.py'] }),
  invalidRequests: [{ paths: 'a.py' }, { tool: 'eslint' }, { max_diagnostics: 0 }, { extra: 1 }, null],
  escapeRequests: (ws) => [{ paths: ['..'] }, { paths: [`${ws.outside}/secret.txt`] }, { paths: ['../ws-evil'] }],
  touchCases: () => [
    { request: {}, touches: { read: ['.'], workspace: true } },
    { request: { paths: ['a.py', 'src'] }, touches: { read: ['a.py', 'src'] } },
  ],
});
