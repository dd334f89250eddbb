import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { replayableCommits } from './git-history.js';
import { prepareCommit } from './prepare-commit.js';
import { type RepositoryReplay, replayRepository } from './replay.js';
import { type CommitReplay, difference } from './replay-commit.js';

const ownRepo = fileURLToPath(new URL('../../../../', import.meta.url));
const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'bough-replay-test-'));
  temp.push(dir);
  return dir;
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'user.name=T', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args],
    {
      cwd,
      encoding: 'utf8',
    },
  );

/** A refusal by policy, not a fidelity gap: the editor never writes credential-like names. */
const BY_DESIGN = new Set(['protected_path']);

/**
 * Sorts every rendering that did not reproduce its commit into problems and exclusions: an exclusion names a known
 * editor gap (an item of issue 35 being fixed elsewhere) the commit runs into, or a refusal by design.
 */
function judge(commits: readonly CommitReplay[]) {
  const problems: string[] = [];
  const excluded: string[] = [];
  for (const c of commits) {
    const where = `${c.sha.slice(0, 10)} ${c.subject.slice(0, 60)}`;
    if (c.gitApply.kind === 'wrong')
      problems.push(`${where}: git apply differs from the commit (${c.gitApply.detail})`);
    for (const format of ['unified', 'applyPatch'] as const) {
      const o = c[format];
      if (o.kind === 'identical' || o.kind === 'skipped') continue;
      if (format === 'unified' && o.kind === 'refused' && c.gitApply.kind !== 'identical') continue;
      const gaps = format === 'unified' ? c.unifiedGaps : c.applyPatchGaps;
      const what = o.kind === 'wrong' ? `WRONG: ${o.detail}` : `refused ${o.code}: ${o.detail}`;
      if (o.kind === 'refused' && BY_DESIGN.has(o.code)) excluded.push(`${where} ${format}: by design (${what})`);
      else if (gaps.length > 0) excluded.push(`${where} ${format}: known gap ${gaps.join('; ')} (${what})`);
      else problems.push(`${where} ${format}: ${what.slice(0, 400)}`);
    }
  }
  return { problems, excluded };
}

describe('real-commit replay of the editor patch action', () => {
  it("reproduces the project's own recent commits in both formats wherever git apply does, and never wrongly", async () => {
    const available = replayableCommits(ownRepo, 40).length;
    if (available < 10) {
      throw new Error(
        `only ${available} non-merge commits with their parent are in this clone; the replay needs 10 (fetch more history, e.g. git fetch --deepen=100)`,
      );
    }
    const result: RepositoryReplay = await replayRepository(ownRepo, { maxCommits: 40 });
    const { problems, excluded } = judge(result.commits);
    if (excluded.length > 0) console.info(`replay: set aside\n${excluded.join('\n')}`);
    expect(problems).toEqual([]);
    expect(result.unified.tried, 'commits replayed (not skipped)').toBeGreaterThanOrEqual(10);
  });

  it('renders a commit in the apply_patch format as Codex writes it, and every copy reproduces it', async () => {
    const repo = tempDir();
    const put = (path: string, text: string) => writeFileSync(join(repo, path), text);
    git(repo, 'init', '-q', '-b', 'main');
    const app = (w: string) =>
      `import os\n\n\ndef greet(name):\n    print("hi")\n    return name\n\n\ndef other():\n    x = 1\n    y = 2\n    z = 3\n    w = ${w}\n    return x + y\n`;
    put('app.py', app('4'));
    put('b.txt', 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n');
    put('d.txt', 'gone\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'base');
    put('app.py', app('40'));
    git(repo, 'mv', 'b.txt', 'c.txt');
    put('c.txt', 'one\ntwo\nthree\nfour\nfive\nsix\nSEVEN\n');
    git(repo, 'rm', '-q', 'd.txt');
    put('e.txt', 'new\nfile\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'change');

    const [commit] = replayableCommits(repo, 5);
    const prepared = prepareCommit(repo, commit!);
    expect(prepared.skip).toBeUndefined();
    expect(prepared.skip === undefined && prepared.applyPatch).toEqual({
      ok: true,
      ambiguousFirst: 0,
      ambiguousLater: 0,
      text: [
        '*** Begin Patch',
        '*** Update File: app.py',
        '@@ def other():',
        '     x = 1',
        '     y = 2',
        '     z = 3',
        '-    w = 4',
        '+    w = 40',
        '     return x + y',
        '*** End of File',
        '*** Update File: b.txt',
        '*** Move to: c.txt',
        '@@ three',
        ' four',
        ' five',
        ' six',
        '-seven',
        '+SEVEN',
        '*** End of File',
        '*** Delete File: d.txt',
        '*** Add File: e.txt',
        '+new',
        '+file',
        '*** End Patch',
        '',
      ].join('\n'),
    });
    const result = await replayRepository(repo, { maxCommits: 5 });
    expect(result.commits.map((c) => [c.unified.kind, c.applyPatch.kind, c.gitApply.kind])).toEqual([
      ['identical', 'identical', 'identical'],
    ]);
  });

  it('tags the known gaps a commit runs into and says why apply_patch cannot carry it', () => {
    const repo = tempDir();
    mkdirSync(join(repo, 'bin'));
    writeFileSync(join(repo, 'tool.sh'), '#!/bin/sh\necho hi\n');
    chmodSync(join(repo, 'tool.sh'), 0o755);
    writeFileSync(join(repo, 'notes.txt'), 'a\n');
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'base');
    git(repo, 'mv', 'tool.sh', 'bin/tool.sh');
    writeFileSync(join(repo, 'win.txt'), 'one\r\ntwo\r\n');
    chmodSync(join(repo, 'notes.txt'), 0o755);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'gaps');
    const prepared = prepareCommit(repo, replayableCommits(repo, 1)[0]!);
    if (prepared.skip !== undefined) throw new Error(prepared.skip);
    expect(prepared.unifiedGaps.map((g) => g.split(' ')[0]).sort()).toEqual(['crlf-add', 'mode-lines', 'mode-on-move']);
    expect(prepared.applyPatchGaps.map((g) => g.split(' ')[0])).toEqual(['mode-on-move']);
    expect(prepared.applyPatch).toEqual({ ok: false, reason: 'mode change', detail: 'notes.txt: 100644 → 100755' });
  });

  it('finds a changed byte, a changed mode, a missing and an extra file', () => {
    const dir = tempDir();
    const expected = new Map([['a/x.txt', { bytes: Buffer.from('same\n'), executable: false }]]);
    mkdirSync(join(dir, 'a'));
    expect(difference(dir, expected)).toBe('a/x.txt is missing');
    writeFileSync(join(dir, 'a/x.txt'), 'same\n');
    chmodSync(join(dir, 'a/x.txt'), 0o644);
    expect(difference(dir, expected)).toBeUndefined();
    writeFileSync(join(dir, 'a/x.txt'), 'sane\n');
    expect(difference(dir, expected)).toMatch(/^a\/x\.txt: differs at byte 2 \(line 1\)/u);
    writeFileSync(join(dir, 'a/x.txt'), 'same\n');
    chmodSync(join(dir, 'a/x.txt'), 0o755);
    expect(difference(dir, expected)).toBe('a/x.txt: executable is true, the commit has false');
    chmodSync(join(dir, 'a/x.txt'), 0o644);
    writeFileSync(join(dir, 'extra'), '');
    expect(difference(dir, expected)).toBe('extra should not exist');
  });
});
