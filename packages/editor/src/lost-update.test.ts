import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockedPathCount } from '../../workspace/src/internal/path-locks.js';
import { handleEditor } from './index.js';
import type { EditorInput } from './schema.js';

type Out = { success: boolean; error_code?: string };

/**
 * Two mutations of one file started together, over and over (the second a few event-loop turns later each round, so
 * it meets every step of the first): every one that reports success must be in the final
 * bytes, and every one that fails must say so with a code that means "read again" and have written nothing. Each
 * call opens its own Workspace on the root (as separate MCP sessions do), so the lock must be shared across them.
 */
const ROUNDS = 1000;
const START = Array.from({ length: 10 }, (_, i) => `a${i}`).join('\n') + '\n';
const withLine = (text: string, from: string, to: string) => text.replace(`${from}\n`, `${to}\n`);
/** Lets `n` turns of the event loop pass, so the second call starts at a different step of the first each round. */
const turns = (n: number) =>
  new Promise<void>((done) => {
    let left = n;
    const next = () => (left-- <= 0 ? done() : setImmediate(next));
    next();
  });
const hunk = (from: string, to: string) =>
  `*** Begin Patch\n*** Update File: f.txt\n@@\n-${from}\n+${to}\n*** End Patch\n`;

describe('no lost update between concurrent mutations of one file', () => {
  let ws: TempWorkspace;
  let file: string;
  beforeEach(() => {
    ws = makeWorkspace({ 'f.txt': START });
    file = join(ws.root, 'f.txt');
  });
  afterEach(() => ws.cleanup());
  const call = async (request: Record<string, unknown>) =>
    (await handleEditor(request as EditorInput, { workspaceRoot: ws.root })) as Out;

  /** Runs `rounds` races; `settle` checks one round's outcomes against the final text and says what it saw. */
  async function race(
    first: Record<string, unknown>,
    second: Record<string, unknown>,
    settle: (a: Out, b: Out, final: string) => void,
  ): Promise<void> {
    for (let round = 0; round < ROUNDS; round++) {
      writeFileSync(file, START);
      const [a, b] = await Promise.all([call(first), turns(round % 60).then(() => call(second))]);
      settle(a, b, readFileSync(file, 'utf8'));
    }
    expect(lockedPathCount()).toBe(0);
  }

  it('patch × patch: both changes land, or the loser gets file_changed and wrote nothing', async () => {
    const seen = { both: 0, one: 0 };
    await race(
      { action: 'patch', patch: hunk('a2', 'P2') },
      { action: 'patch', patch: hunk('a7', 'P7') },
      (a, b, final) => {
        for (const out of [a, b]) if (!out.success) expect(out.error_code).toBe('file_changed');
        let expected = START;
        if (a.success) expected = withLine(expected, 'a2', 'P2');
        if (b.success) expected = withLine(expected, 'a7', 'P7');
        expect(final).toBe(expected);
        expect(a.success || b.success).toBe(true);
        if (a.success && b.success) seen.both++;
        else seen.one++;
      },
    );
    expect(seen.one).toBeGreaterThan(0);
  }, 180_000);

  it('patch × edit: the same for an edit racing a patch', async () => {
    await race(
      { action: 'patch', patch: hunk('a2', 'P2') },
      { action: 'edit', file_path: 'f.txt', old_string: 'a5\n', new_string: 'E5\n' },
      (a, b, final) => {
        for (const out of [a, b]) if (!out.success) expect(out.error_code).toBe('file_changed');
        let expected = START;
        if (a.success) expected = withLine(expected, 'a2', 'P2');
        if (b.success) expected = withLine(expected, 'a5', 'E5');
        expect(final).toBe(expected);
      },
    );
  }, 180_000);

  it('write × patch: a successful write is never overwritten by a patch made against the old text', async () => {
    const whole = 'w\n';
    await race(
      { action: 'patch', patch: hunk('a2', 'P2') },
      { action: 'write', file_path: 'f.txt', content: whole },
      (a, b, final) => {
        expect(b.success).toBe(true);
        // The patch either ran first (then the write replaced its result) or found the written text: never both kept.
        if (!a.success) expect(['file_changed', 'patch_conflict']).toContain(a.error_code);
        expect(final).toBe(whole);
      },
    );
  }, 180_000);

  it('move × patch: a patched file is moved with its change, or the patch finds it gone; never a lost change', async () => {
    const moved = join(ws.root, 'g.txt');
    for (let round = 0; round < ROUNDS / 2; round++) {
      rmSync(moved, { force: true });
      writeFileSync(file, START);
      const [p, m] = await Promise.all([
        call({ action: 'patch', patch: hunk('a2', 'P2') }),
        turns(round % 60).then(() => call({ action: 'move', file_path: 'f.txt', destination: 'g.txt' })),
      ]);
      if (!m.success) expect(m.error_code).toBe('changed_during_check');
      if (!p.success) expect(['file_changed', 'not_found']).toContain(p.error_code);
      const expected = p.success ? withLine(START, 'a2', 'P2') : START;
      expect(existsSync(m.success ? file : moved)).toBe(false);
      expect(readFileSync(m.success ? moved : file, 'utf8')).toBe(expected);
    }
    expect(lockedPathCount()).toBe(0);
  }, 180_000);
});
