import { TEST_BASE_ENV } from '@bough/test-utils';
import { expect, it } from 'vitest';
import { startProcess } from './start-process.js';

it('gives a started program a stdin pipe only when asked, so a request/response server can be driven', async () => {
  let out = '';
  const started = await startProcess(['cat'], {
    baseEnv: TEST_BASE_ENV,
    stdinPipe: true,
    onStdout: (chunk) => {
      out += chunk.toString();
    },
    onStderr: () => {},
  });
  if (!started.success) throw new Error(started.error);
  started.stdin?.end('ping\n');
  const exit = await started.done;
  expect(exit.return_code).toBe(0);
  expect(out).toBe('ping\n');

  const plain = await startProcess(['cat'], { baseEnv: TEST_BASE_ENV, onStdout: () => {}, onStderr: () => {} });
  if (!plain.success) throw new Error(plain.error);
  expect(plain.stdin).toBeUndefined();
  expect((await plain.done).return_code).toBe(0); // stdin at EOF: cat ends at once
});
