import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { captureIO, type FakeStep, makeWorkspace, sseAnswer, useFakeModelAgent } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';

const never = new AbortController().signal;
const agent = useFakeModelAgent(main, { 'todo.txt': 'buy milk\n' });
const run = (steps: FakeStep[], argv: string[]) => agent.run(steps, argv);

const read = { id: 'r1', name: 'reader', args: { action: 'read', path: 'todo.txt' } };
const edit = {
  id: 'e1',
  name: 'editor',
  args: { action: 'edit', file_path: 'todo.txt', old_string: 'milk', new_string: 'bread' },
};
const lastTool = (request: { body: { messages: { role: string; content?: unknown }[] } }) => ({
  sse: sseAnswer([String(request.body.messages.filter((m) => m.role === 'tool').at(-1)?.content)]),
});

describe('bough agent sessions', () => {
  it('resumes the latest session after a stop: the conversation goes on and unchanged reads still count', async () => {
    const first = await run(
      [{ sse: sseAnswer(['Reading first.'], [read]) }, { sse: sseAnswer([], [read]) }],
      ['fix the list', '--max-turns', '1'],
    );
    expect(first.code).toBe(1);
    expect(first.err).toMatch(/stopped: max_turns/);
    expect(first.err).toMatch(/session: .*\.bough\/sessions\/.*\.json/);
    const second = await run(
      [{ sse: sseAnswer(['Editing now.'], [edit]) }, lastTool],
      ['now change it', '--resume', '--yes'],
    );
    expect(second.code).toBe(0);
    const sent = second.requests[0]!.body.messages;
    // The earlier turns come back as they were: one assistant message with its text and call, then its result.
    expect(sent.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'user',
      'assistant',
      'tool',
      'user',
    ]);
    // Text and call of the first turn replay as one assistant message, answered by its tool result.
    expect(sent[2]).toMatchObject({
      content: 'Reading first.',
      tool_calls: [{ id: 'r1', function: { name: 'reader' } }],
    });
    expect(sent[3]).toMatchObject({ role: 'tool', tool_call_id: 'r1' });
    // In the session file the turn is one assistant message holding its text and its call.
    const saved = JSON.parse(readFileSync(first.err.match(/session: (\S+\.json)/)![1]!, 'utf8'));
    const turn = saved.branch.messages.filter((m: { role: string }) => m.role === 'assistant');
    expect(turn[0]).toMatchObject({
      content: 'Reading first.',
      metadata: { tool_calls: [{ id: 'r1', name: 'reader', arguments: { action: 'read', path: 'todo.txt' } }] },
    });
    expect(String(sent[4]?.content)).toMatch(/Unchanged since you saw them \(checked again below\): todo\.txt/);
    expect(sent.at(-1)).toMatchObject({ role: 'user', content: 'now change it' });
    expect(second.out).toMatch(/"success":true/);
    expect(readFileSync(join(agent.ws.root, 'todo.txt'), 'utf8')).toBe('buy bread\n');
  });

  it('drops the evidence of a file changed since: the edit is refused until it is read again', async () => {
    const session = join(agent.ws.base, 'my-session.json');
    await run([{ sse: sseAnswer([], [read]) }, { sse: sseAnswer(['read it']) }], ['look', '--session', session]);
    expect(existsSync(session)).toBe(true);
    writeFileSync(join(agent.ws.root, 'todo.txt'), 'buy milk and eggs\n');
    const second = await run([{ sse: sseAnswer([], [edit]) }, lastTool], ['change it', '--session', session, '--yes']);
    const sent = second.requests[0]!.body.messages;
    expect(String(sent.find((m) => String(m.content).startsWith('[bough]'))?.content)).toMatch(
      /Changed or removed since you saw them: todo\.txt/,
    );
    expect(second.out).toMatch(/"success":false/);
    expect(readFileSync(join(agent.ws.root, 'todo.txt'), 'utf8')).toBe('buy milk and eggs\n');
  });

  it("keeps the session folder out of the model's tools: no read, listing, search or write of .bough", async () => {
    const first = await run([{ sse: sseAnswer(['hi']) }], ['hi']);
    expect(first.code).toBe(0);
    const calls = [
      { id: 'p1', name: 'reader', args: { action: 'list_dir', path: '.bough/sessions' } },
      { id: 'p2', name: 'reader', args: { action: 'read', path: '.bough/sessions/x.json' } },
      { id: 'p3', name: 'editor', args: { action: 'write', file_path: '.bough/sessions/forged.json', content: '{}' } },
      { id: 'p4', name: 'search', args: { action: 'grep', pattern: 'bough.agent-session', path: '.' } },
    ];
    const second = await run([{ sse: sseAnswer([], calls) }, { sse: sseAnswer(['done']) }], ['peek', '--yes']);
    expect(second.code).toBe(0);
    const results = second.requests[1]!.body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(results).toHaveLength(4);
    for (const result of results.slice(0, 3)) expect(result).toMatch(/protected_path/);
    // The search skips the folder instead of failing: no session line comes back.
    expect(results[3]).not.toMatch(/agent-session\/1/);
    expect(existsSync(join(agent.ws.root, '.bough/sessions/forged.json'))).toBe(false);
  });

  it('refuses --resume without a session, and a session of another workspace', async () => {
    const none = await run([], ['hi', '--resume']);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/--resume found no session/);
    const session = join(agent.ws.base, 's.json');
    await run([{ sse: sseAnswer(['hi']) }], ['hi', '--session', session]);
    const other = makeWorkspace();
    try {
      const io = captureIO(other.root);
      expect(
        await main(['agent', 'hi', '--session', session, '--base-url', agent.server!.url, '--model', 'm'], io, never),
      ).toBe(2);
      expect(io.err()).toMatch(/belongs to the workspace/);
    } finally {
      other.cleanup();
    }
  });
});
