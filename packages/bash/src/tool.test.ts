import { describeToolConformance } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { BASH_DESCRIPTION } from './description.js';
import { createBashTool } from './tool.js';
import { bashProvider } from './tool-set.js';

describeToolConformance('bash', {
  makeTool: (ws) => createBashTool({ workspaceRoot: ws.root }),
  validRequest: () => ({ command: 'echo ok' }),
  invalidRequests: [
    {},
    { command: 42 },
    { command: '' },
    { command: 'echo hi', allow_shell: true },
    { command: 'echo hi', timeout: 'soon' },
    { command: 'echo hi', cwd: 3 },
  ],
  escapeRequests: (ws) => [
    { command: 'cat secret.txt', cwd: '../ws-evil' },
    { command: 'cat secret.txt', cwd: ws.outside },
    { command: `cat ${ws.outside}/secret.txt | cat` },
  ],
});

describe('bash tool', () => {
  it('says plainly that it is not a sandbox and how to recover from refusals', () => {
    expect(BASH_DESCRIPTION).toContain('not a sandbox');
    for (const text of ['cwd', 'head -n 20 FILE', '--output FILE', 'shell_operator', 'timed_out']) {
      expect(BASH_DESCRIPTION).toContain(text);
    }
  });

  it('is handed out with the jobs tool by a branch provider that builds a fresh job store each time', async () => {
    const provider = bashProvider({ workspaceRoot: '/' });
    expect(provider.scope).toBe('branch');
    const first = provider.build({} as never);
    expect(first.map((tool) => tool.name)).toEqual(['bash', 'jobs']);
    expect(provider.build({} as never)[0]).not.toBe(first[0]);
    await provider.dispose();
  });
});
