import { describeToolConformance } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BASH_DESCRIPTION, bashDescription } from './description.js';
import { JobStore } from './job-store.js';
import { JobsRequest } from './jobs-schema.js';
import { createJobsTool } from './jobs-tool.js';
import { resolveBashLimits } from './limits.js';
import { BashRequest } from './schema.js';
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
  touchCases: () => [
    { request: { command: 'ls' }, touches: { cwd: '.', workspace: true } },
    { request: { command: 'ls', cwd: 'secrets', background: true }, touches: { cwd: 'secrets', workspace: true } },
  ],
});

describeToolConformance('jobs', {
  makeTool: () => createJobsTool(new JobStore()),
  validRequest: () => ({ action: 'list' }),
  invalidRequests: [
    {},
    { action: 'launch' },
    { action: 'read' },
    { action: 'list', job_id: 7 },
    { action: 'list', x: 1 },
  ],
});

describe('bash tool', () => {
  it('says plainly that it is not a sandbox and how to recover from refusals', () => {
    expect(BASH_DESCRIPTION).toContain('not a sandbox');
    // The rest of the recovery advice is in each refusal's text (see the shell_operator cases of @bough/process).
    for (const text of ['cwd', '`env NAME=value PROG`', 'background: true']) {
      expect(BASH_DESCRIPTION).toContain(text);
    }
  });

  it('states only numbers it enforces: the descriptions follow the limits, the field texts state none', async () => {
    const limits = resolveBashLimits({ jobWaitMaxMs: 98_765, maxJobs: 5, defaultTimeoutMs: 12_345 });
    const jobs = createJobsTool(new JobStore(limits));
    for (const text of ['max 98,765', 'at most 5 run at once']) expect(jobs.description).toContain(text);
    expect(bashDescription(limits)).toContain('default 12,345');
    for (const schema of [JobsRequest, BashRequest]) {
      const properties = (z.toJSONSchema(schema) as { properties: Record<string, { description?: string }> })
        .properties;
      for (const [name, field] of Object.entries(properties)) {
        expect(field.description ?? '', name).not.toMatch(/\d{2,}|\d h\b/);
      }
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
