// The README's usage example, run as it is written.
import { runReadmeUsage } from '@bough/test-utils';
import { expect, it } from 'vitest';

it('runs the README usage example: a change made in the worktree is merged back into dev', async () => {
  const logs = await runReadmeUsage(import.meta.dirname, 'createWorktree');
  expect(logs).toEqual([[['notes.txt']], [expect.stringMatching(/^Merged worktree-[0-9a-f]{8} into dev/)]]);
});
