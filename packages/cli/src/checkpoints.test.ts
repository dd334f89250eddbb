import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCheckpointStore } from '@bough/checkpoints';
import { captureIO, makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from './main.js';

let ws: TempWorkspace;
let env: Record<string, string>;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\n' });
  env = { XDG_STATE_HOME: join(ws.base, 'state') };
});
afterEach(() => ws.cleanup());
const run = async (...argv: string[]) => {
  const io = captureIO(ws.root, env);
  const code = await main(argv, io, new AbortController().signal);
  return { code, out: io.out(), err: io.err() };
};

describe('bough checkpoints / bough undo', () => {
  it('lists the calls, undoes the newest, and undoes the undo', async () => {
    const store = createCheckpointStore({ root: ws.root, env });
    await store.record({ callId: 'c1', tool: 'editor', branch: 'main' }, async () =>
      writeFileSync(ws.path('a.txt'), 'edited\n'),
    );
    const listed = await run('checkpoints');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/after \(editor, call c1, branch main\)\n {4}1 file\(s\): a\.txt/u);
    const diff = await run('checkpoints', 'diff', listed.out.slice(0, 12), '--json');
    expect(JSON.parse(diff.out).diff).toContain('+edited');

    const undone = await run('undo');
    expect(undone).toMatchObject({ code: 0, err: '' });
    expect(undone.out).toContain('1 file(s) restored: a.txt');
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('alpha\n');
    expect((await run('undo')).code).toBe(0);
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('edited\n');
  });

  it('refuses to overwrite a change nobody recorded unless --force; usage errors exit 2', async () => {
    const store = createCheckpointStore({ root: ws.root, env });
    await store.record({ callId: 'c1', tool: 'bash' }, async () => writeFileSync(ws.path('a.txt'), 'by call\n'));
    writeFileSync(ws.path('a.txt'), 'by hand\n');
    const refused = await run('undo');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('(conflict)');
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('by hand\n');
    expect((await run('undo', '--force')).code).toBe(0);
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('alpha\n');
    expect((await run('undo', '--hard')).code).toBe(2);
    expect(await run('undo', 'ffffffffffff')).toMatchObject({
      code: 1,
      err: expect.stringContaining('no recent checkpoint'),
    });
    expect((await run('checkpoints', 'show')).code).toBe(2);
  });
});
