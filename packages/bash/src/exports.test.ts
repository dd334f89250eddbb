import { expect, it } from 'vitest';

it('exports exactly these names, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
    [
      "BASH_DESCRIPTION",
      "BASH_ERROR_CODES",
      "BASH_LIMITS",
      "BashFailure",
      "BashJobStarted",
      "BashRequest",
      "BashResponse",
      "BashResult",
      "DEFAULT_BASH_LIMITS",
      "JOBS_DESCRIPTION",
      "JobStore",
      "JobsRequest",
      "JobsResponse",
      "bashProvider",
      "createBashTool",
      "createBashTools",
      "createJobsTool",
      "handleBash",
      "handleJobs",
      "resolveBashLimits",
    ]
  `);
});
