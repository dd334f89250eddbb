// The README's usage example, run as it is written against a real nats-server on loopback.
import { runReadmeUsage, startNatsServer, type TestNatsServer } from '@bough/test-utils';
import { afterEach, expect, it, vi } from 'vitest';

let server: TestNatsServer | undefined;
afterEach(async () => {
  await server?.close();
  vi.unstubAllEnvs();
});

it('runs the README usage example: the lead sends, w1 waits for the mail and receives it', async () => {
  server = await startNatsServer();
  vi.stubEnv('NATS_URL', server.url);
  const logs = await runReadmeUsage(import.meta.dirname, 'openNatsExchange');
  expect(logs).toHaveLength(1);
  const [status, output] = logs[0] as [string, string];
  expect(status).toBe('completed');
  expect(JSON.parse(output)).toMatchObject({
    success: true,
    messages: [expect.objectContaining({ content: 'count the TODOs' })],
  });
}, 30_000);
