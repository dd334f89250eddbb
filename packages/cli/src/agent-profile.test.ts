import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { captureIO, type FakeStep, sseAnswer, useFakeModelAgent } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';

const never = new AbortController().signal;
const agent = useFakeModelAgent(main, { 'app.py': 'def main():\n    return 1\n' });

/** Runs `bough agent` against the fake model with exactly these flags (the model name among them). */
async function run(steps: FakeStep[], argv: string[]) {
  const server = await agent.serve(steps);
  const io = captureIO(agent.ws.root, { BOUGH_MODEL_RETRY_DELAY_MS: '1' });
  const code = await main(['agent', 'go', '--yes', '--base-url', server.url, ...argv], io, never);
  const offered = (server.requests[0]?.body.tools ?? []).map((tool) => tool.function.name);
  return { code, out: io.out(), err: io.err(), offered, requests: server.requests };
}
const answer: FakeStep = { sse: sseAnswer(['done']) };
const toolOutputs = (request: { body: { messages: { role: string; content?: unknown }[] } }) =>
  request.body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));

describe('bough agent offers the tools the model was trained on', () => {
  it.each([
    ['claude-sonnet-4-5', ['str_replace_based_edit_tool', 'bash']],
    ['gpt-5', ['apply_patch', 'shell']],
    ['gemini-2.5-pro', ['read_file', 'write_file', 'replace', 'glob', 'search_file_content', 'run_shell_command']],
  ])('%s gets its family by default', async (model, names) => {
    const r = await run([answer], ['--model', model]);
    expect(r.code).toBe(0);
    expect(r.offered).toEqual(expect.arrayContaining(names));
    expect(r.offered).not.toContain('editor');
  });

  it('any other model gets bough’s own tools, and --profile overrides the name', async () => {
    expect((await run([answer], ['--model', 'qwen3-coder'])).offered).toContain('editor');
    const forced = await run([answer], ['--model', 'claude-sonnet-4-5', '--profile', 'full']);
    expect(forced.offered).toContain('editor');
    expect(forced.offered).not.toContain('str_replace_based_edit_tool');
    expect((await run([answer], ['--model', 'qwen3-coder', '--profile', 'openai'])).offered).toEqual([
      'apply_patch',
      'shell',
    ]);
  });

  it('a Claude model views and edits through the text editor, with the read-before-edit guard behind it', async () => {
    const call = (id: string, input: unknown) => ({ id, name: 'str_replace_based_edit_tool', args: input });
    const edit = { command: 'str_replace', path: 'app.py', old_str: 'return 1', new_str: 'return 2' };
    const r = await run(
      [
        { sse: sseAnswer([''], [call('e0', edit)]) },
        { sse: sseAnswer([''], [call('v1', { command: 'view', path: 'app.py' })]) },
        { sse: sseAnswer([''], [call('e1', edit)]) },
        answer,
      ],
      ['--model', 'anthropic/claude-opus-4-1'],
    );
    expect(r.code).toBe(0);
    const last = r.requests[3];
    const outputs = last ? toolOutputs(last) : [];
    expect(outputs[0]).toMatch(/^Error: /);
    expect(outputs[1]).toBe('1: def main():\n2:     return 1');
    expect(outputs[2]).toBe('Successfully replaced text at exactly one location.');
    expect(readFileSync(join(agent.ws.root, 'app.py'), 'utf8')).toBe('def main():\n    return 2\n');
  });

  it('--print-config says which profile and why; a bad --profile is a usage error', async () => {
    const io = captureIO(agent.ws.root);
    expect(await main(['agent', '--print-config', '--model', 'o3'], io, never)).toBe(0);
    expect(io.out()).toMatch(/profile\s+openai\s+\(from the model name o3\)/);
    const forced = captureIO(agent.ws.root);
    expect(await main(['agent', '--print-config', '--model', 'o3', '--profile', 'minimal'], forced, never)).toBe(0);
    expect(forced.out()).toMatch(/profile\s+minimal\s+\(--profile\)/);
    const bad = captureIO(agent.ws.root);
    expect(await main(['agent', 'hi', '--model', 'o3', '--profile', 'vim'], bad, never)).toBe(2);
    expect(bad.err()).toMatch(/--profile needs one of full, minimal, anthropic, openai, gemini/);
  });
});
