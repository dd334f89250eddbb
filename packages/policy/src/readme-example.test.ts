// The README's usage example, run as it is written.
import { runReadmeUsage } from '@bough/test-utils';
import { expect, it } from 'vitest';

it('runs the README usage example: the verdicts and the hooked calls come out as its comments say', async () => {
  const logs = await runReadmeUsage(import.meta.dirname, 'permissionHook');
  expect(logs).toEqual([
    ['allow'],
    ['deny'],
    ['ask'],
    ['deny', 'secrets/**'],
    ['ls -la', 'completed', ''],
    ['make', 'completed', ''],
    ['make install', 'failed', 'denied'],
    ['rm -rf /', 'failed', 'denied'],
  ]);
});
