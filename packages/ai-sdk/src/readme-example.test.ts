// The README's "Drive a Branch" example, run as it is written against a local fake server.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FakeOpenAI, readmeCodeBlock, sseAnswer, startFakeOpenAI } from '@bough/test-utils';
import { afterEach, expect, it, vi } from 'vitest';

let server: FakeOpenAI | undefined;
const file = join(import.meta.dirname, 'readme-example.generated.ts');
afterEach(async () => {
  await server?.close();
  rmSync(file, { force: true });
  vi.unstubAllEnvs();
});

it('runs the README example: a tool call, then the answer', async () => {
  const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
  const code = readmeCodeBlock(readme, '## Drive a Branch');
  expect(code).toContain('new AiSdkChatModel');
  server = await startFakeOpenAI([
    { sse: sseAnswer(['Checking the clock.'], [{ id: 'c1', name: 'clock', args: {} }]) },
    (request) => ({ sse: sseAnswer([`It is ${String(request.body.messages.at(-1)?.content).slice(0, 4)}.`]) }),
  ]);
  vi.stubEnv('OPENAI_BASE_URL', server.url);
  vi.stubEnv('BOUGH_MODEL', 'fake');
  const logs: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((text: string) => void logs.push(text));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  writeFileSync(file, code as string);
  try {
    await import(/* @vite-ignore */ file);
  } finally {
    log.mockRestore();
    err.mockRestore();
  }
  expect(logs).toEqual([`It is ${new Date().getUTCFullYear()}.`]);
  expect(server.requests[1]?.body.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'c1' });
});
