import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { Workspace } from '@bough/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { confirmMatches, type PendingMatch } from './internal/verify-results.js';

// On Linux a match is confirmed by opening its file by name inside the parent directory, held open and proven to be
// the directory the gate resolved; these cases pin what that path keeps, drops and leaves open.
const MAX = 20 * 1024 * 1024;
const openDescriptors = () => (process.platform === 'linux' ? readdirSync('/proc/self/fd').length : 0);

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({});
});
afterEach(() => ws.cleanup());

describe('confirming matches through held parent directories', () => {
  it('confirms files in many directories (more than are held at once) and leaves no descriptor open', async () => {
    const matches: PendingMatch[] = [];
    for (let d = 0; d < 70; d++) {
      mkdirSync(ws.path(`d${String(d).padStart(2, '0')}`));
      for (let f = 0; f < 2; f++) {
        const path = `d${String(d).padStart(2, '0')}/f${f}.txt`;
        writeFileSync(ws.path(path), `first\nneedle ${d} ${f}\n`);
        matches.push({ path, line: 2, text: `needle ${d} ${f}` });
      }
    }
    const workspace = await Workspace.open(ws.root);
    const before = openDescriptors();
    const result = await confirmMatches(workspace, matches, MAX);
    expect(result).toEqual({ kept: matches, dropped: 0, unchecked: 0 });
    // Held directories are closed once every file is decided (a turn of the event loop after the answer).
    await new Promise((resolve) => setImmediate(resolve));
    expect(openDescriptors()).toBe(before);
  });

  it('drops matches whose path now goes through a link out, is a link, a FIFO or too large', async () => {
    writeFileSync(join(ws.outside, 'secret.txt'), 'needle outside\n');
    symlinkSync(ws.outside, ws.path('out'));
    symlinkSync(join(ws.outside, 'secret.txt'), ws.path('link.txt'));
    writeFileSync(ws.path('big.txt'), 'needle big\n');
    execFileSync('mkfifo', [ws.path('pipe.txt')]);
    const matches: PendingMatch[] = [
      { path: 'pipe.txt', line: 1, text: 'needle in a pipe' },
      { path: 'out/secret.txt', line: 1, text: 'needle outside' },
      { path: 'link.txt', line: 1, text: 'needle outside' },
      { path: 'big.txt', line: 1, text: 'needle big' },
    ];
    const workspace = await Workspace.open(ws.root);
    expect(await confirmMatches(workspace, matches, 4)).toEqual({ kept: [], dropped: 4, unchecked: 0 });
    expect(await confirmMatches(workspace, matches.slice(3), MAX)).toEqual({
      kept: matches.slice(3),
      dropped: 0,
      unchecked: 0,
    });
  });

  it('reads past the first synchronous stretch: a line that straddles 64 KiB and one near the end of a larger file', async () => {
    const head = `${'a'.repeat(99)}\n`.repeat(655); // 65,500 bytes
    const straddling = `needle across ${'b'.repeat(100)}`;
    const tail = `${'c'.repeat(99)}\n`.repeat(3000);
    writeFileSync(ws.path('mid.txt'), `${head}${straddling}\n${tail}needle at the end\n`);
    const matches: PendingMatch[] = [
      { path: 'mid.txt', line: 656, text: straddling },
      { path: 'mid.txt', line: 3657, text: 'needle at the end' },
    ];
    const workspace = await Workspace.open(ws.root);
    expect(await confirmMatches(workspace, matches, MAX)).toEqual({ kept: matches, dropped: 0, unchecked: 0 });
    // The same text on the wrong line is not kept.
    expect(await confirmMatches(workspace, [{ ...matches[1], line: 3656 } as PendingMatch], MAX)).toMatchObject({
      kept: [],
      dropped: 1,
    });
  });
});
