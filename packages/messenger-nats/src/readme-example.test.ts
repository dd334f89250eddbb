// The README's usage example, run as it is written against a real nats-server on loopback.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readmeCodeBlock, startNatsServer, type TestNatsServer } from '@bough/test-utils';
import { afterEach, expect, it, vi } from 'vitest';

let server: TestNatsServer | undefined;
const file = join(import.meta.dirname, 'readme-example.generated.ts');
afterEach(async () => {
  await server?.close();
  rmSync(file, { force: true });
  vi.unstubAllEnvs();
});

it('runs the README usage example: the lead sends, w1 waits for the mail and receives it', async () => {
  const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
  const code = readmeCodeBlock(readme, '## Usage');
  expect(code).toContain('openNatsExchange');
  server = await startNatsServer();
  vi.stubEnv('NATS_URL', server.url);
  const logs: unknown[][] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logs.push(args));
  writeFileSync(file, code as string);
  try {
    await import(/* @vite-ignore */ file);
  } finally {
    log.mockRestore();
  }
  expect(logs).toHaveLength(1);
  const [status, output] = logs[0] as [string, string];
  expect(status).toBe('completed');
  expect(JSON.parse(output)).toMatchObject({
    success: true,
    messages: [expect.objectContaining({ content: 'count the TODOs' })],
  });
}, 30_000);
