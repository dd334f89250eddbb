import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { captureIO, type FakeStep, sseAnswer, useFakeModelAgent } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';

const never = new AbortController().signal;
const agent = useFakeModelAgent(main, { 'todo.txt': 'buy milk\n' });

// A command that edits one file and creates another: what an editor-only undo would miss.
const command = `python3 -c "open('todo.txt','w').write('buy bread\\n'); open('made.txt','w').write('new\\n')"`;
const steps: FakeStep[] = [
  { sse: sseAnswer(['Changing the list.'], [{ id: 'b1', name: 'bash', args: { command } }]) },
  { sse: sseAnswer(['Done.']) },
];
const storeRoot = () => join(agent.ws.base, 'state', 'bough', 'checkpoints');

/** `bough <argv>` in the test's workspace, with the state directory the agent runs got. */
async function cli(...argv: string[]) {
  const io = captureIO(agent.ws.root, { XDG_STATE_HOME: join(agent.ws.base, 'state') });
  const code = await main(argv, io, never);
  return { code, out: io.out(), err: io.err() };
}

describe('bough agent keeps checkpoints by default', () => {
  it('a command the model ran is listed with its call and undone by bough undo; the undo can be undone', async () => {
    const run = await agent.run(steps, ['tidy the list', '--yes']);
    expect(run.code).toBe(0);
    expect(run.requests[0]?.body.tools?.map((t) => t.function.name)).toContain('checkpoints');
    expect(readFileSync(agent.ws.path('todo.txt'), 'utf8')).toBe('buy bread\n');
    // The store is in the user's state directory, not in the workspace.
    expect(readdirSync(storeRoot())).toHaveLength(1);

    const listed = await cli('checkpoints');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/after \(bash, call b1, branch cli\)\n {4}2 file\(s\): made\.txt todo\.txt/u);
    const undone = await cli('undo');
    expect(undone).toMatchObject({ code: 0, err: '' });
    expect(readFileSync(agent.ws.path('todo.txt'), 'utf8')).toBe('buy milk\n');
    expect(existsSync(agent.ws.path('made.txt'))).toBe(false);
    expect((await cli('undo')).code).toBe(0);
    expect(readFileSync(agent.ws.path('made.txt'), 'utf8')).toBe('new\n');
  });

  it('--no-checkpoints keeps none and gives the model no checkpoints tool', async () => {
    const run = await agent.run(steps, ['tidy the list', '--yes', '--no-checkpoints']);
    expect(run.code).toBe(0);
    expect(run.requests[0]?.body.tools?.map((t) => t.function.name)).not.toContain('checkpoints');
    expect(readFileSync(agent.ws.path('todo.txt'), 'utf8')).toBe('buy bread\n');
    expect(existsSync(storeRoot())).toBe(false);
    expect((await cli('undo')).err).toMatch(/nothing to undo/u);
  });

  it('never keeps the store inside the workspace: a state directory there turns checkpoints off, with a notice', async () => {
    const inside = agent.ws.path('.state');
    const run = await agent.run(steps, ['tidy the list', '--yes'], { XDG_STATE_HOME: inside });
    expect(run.code).toBe(0);
    expect(run.err).toMatch(/checkpoints are off for this run: .*inside the workspace/u);
    expect(existsSync(inside)).toBe(false);
    expect(readFileSync(agent.ws.path('todo.txt'), 'utf8')).toBe('buy bread\n');
  });
});
