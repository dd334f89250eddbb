// The after-command half of the git guard, without bubblewrap: what it removes, restores and leaves alone.
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { initRepo, makeWorkspace, snapshotTree, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_DENY } from './internal/deny-rules.js';
import { guardGit } from './internal/git-guard.js';
import { scanWorkspace } from './internal/workspace-scan.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'a\n', 'old/x.txt': 'x\n' });
  initRepo(ws.root);
});
afterEach(() => ws.cleanup());

const scan = (budget = 10_000) => scanWorkspace(ws.root, undefined, NO_DENY, budget);

describe('git guard repair', () => {
  it('restores a changed hook and config, removes new control files, keeps data changes', () => {
    writeFileSync(ws.path('.git/hooks/pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const guard = guardGit(ws.root, scan().git);
    const config = readFileSync(ws.path('.git/config'), 'utf8');
    writeFileSync(ws.path('.git/hooks/pre-commit'), '#!/bin/sh\ntouch /tmp/x\n');
    writeFileSync(ws.path('.git/config'), `${config}[core]\n\tfsmonitor = touch /tmp/x\n`);
    writeFileSync(ws.path('.git/commondir'), '../evil\n');
    writeFileSync(ws.path('.git/description'), 'data, not control\n');
    const note = guard.repair(scan().git, false);
    expect(note).toMatch(/restored 3 git control file/);
    expect(readFileSync(ws.path('.git/hooks/pre-commit'), 'utf8')).toBe('#!/bin/sh\nexit 0\n');
    expect(readFileSync(ws.path('.git/config'), 'utf8')).toBe(config);
    expect(existsSync(ws.path('.git/commondir'))).toBe(false);
    expect(readFileSync(ws.path('.git/description'), 'utf8')).toBe('data, not control\n');
  });

  it('says nothing when nothing git would run changed', () => {
    const guard = guardGit(ws.root, scan().git);
    writeFileSync(ws.path('a.txt'), 'changed\n');
    expect(guard.repair(scan().git, false)).toBeUndefined();
  });

  it('never follows a link out of the workspace when undoing', () => {
    const guard = guardGit(ws.root, scan().git);
    rmSync(ws.path('.git/info'), { recursive: true, force: true });
    symlinkSync(ws.outside, ws.path('.git/info'));
    const outside = snapshotTree(ws.outside);
    guard.repair(scan().git, false);
    expect(snapshotTree(ws.outside)).toBe(outside);
    expect(existsSync(join(ws.outside, 'exclude'))).toBe(false);
  });

  it('with a partial scan, removes only the git entries born during the command', async () => {
    mkdirSync(ws.path('old/.git'));
    // Older than the guard's margin for a coarse file-system clock.
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The scan before the command did not reach old/.git (its budget ran out): it is unknown but older.
    const guard = guardGit(
      ws.root,
      scan().git.filter((entry) => !entry.path.includes('old')),
    );
    mkdirSync(ws.path('new/.git'), { recursive: true });
    const note = guard.repair(scan().git, true);
    expect(note).toMatch(/new\/.git/);
    expect(existsSync(ws.path('new/.git'))).toBe(false);
    expect(existsSync(ws.path('old/.git'))).toBe(true);
  });
});
