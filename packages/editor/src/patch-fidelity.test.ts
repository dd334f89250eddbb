import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { makeWorkspace, snapshotTree, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleEditor } from './index.js';

type Out = Record<string, unknown> & { success: boolean; error_code?: string };

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('patch byte fidelity', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({ 'keep.txt': 'keep\n' });
  });
  afterEach(() => ws.cleanup());
  const patch = async (text: string) =>
    (await handleEditor({ action: 'patch', patch: text }, { workspaceRoot: ws.root })) as Out;

  /** A git repository beside the workspace: `change` edits it after a first commit, the staged diff is returned. */
  function gitDiff(
    files: Record<string, string>,
    change: (repo: TempWorkspace) => void,
    modes: Record<string, number> = {},
  ): string {
    const repo = makeWorkspace(files);
    try {
      for (const [name, mode] of Object.entries(modes)) chmodSync(repo.path(name), mode);
      const git = (...args: string[]) => execFileSync('git', args, { cwd: repo.root, encoding: 'utf8' });
      git('init', '-q');
      git('config', 'core.autocrlf', 'false');
      git('add', '-A');
      git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'base', '--allow-empty');
      change(repo);
      git('add', '-A');
      return git('diff', '--cached', '-M');
    } finally {
      repo.cleanup();
    }
  }

  it('an apply_patch Add File keeps the CRLF, LF or mixed endings its lines carry', async () => {
    const text =
      '*** Begin Patch\r\n*** Add File: win.txt\r\n+one\r\n+two\r\n*** Add File: mixed.txt\n+a\r\n+b\n*** End Patch\n';
    expect(await patch(text)).toMatchObject({ success: true });
    expect(readFileSync(ws.path('win.txt'), 'latin1')).toBe('one\r\ntwo\r\n');
    expect(readFileSync(ws.path('mixed.txt'), 'latin1')).toBe('a\r\nb\n');
  });

  it('a git diff adding CRLF, mixed and unterminated files creates them byte for byte', async () => {
    const wanted = { 'crlf.txt': 'x\r\ny\r\n', 'mixed.txt': 'x\r\ny\nz', 'bare.txt': 'no newline\r' };
    const diff = gitDiff({}, (repo) => {
      for (const [name, body] of Object.entries(wanted)) repo.write(name, body);
    });
    expect(diff).toContain('\r\n');
    expect(await patch(diff)).toMatchObject({ success: true });
    for (const [name, body] of Object.entries(wanted)) expect(readFileSync(ws.path(name), 'latin1')).toBe(body);
  });

  it('a move by patch keeps the mode, in both formats', async () => {
    ws.write('run.sh', '#!/bin/sh\necho hi\n');
    chmodSync(ws.path('run.sh'), 0o755);
    const moved =
      '*** Begin Patch\n*** Update File: run.sh\n*** Move to: bin/run.sh\n@@\n-echo hi\n+echo bye\n*** End Patch';
    expect(await patch(moved)).toMatchObject({ success: true });
    expect(modeOf(ws.path('bin/run.sh'))).toBe(0o755);
    const renamed = [
      'diff --git a/bin/run.sh b/go.sh',
      'similarity index 90%',
      'rename from bin/run.sh',
      'rename to go.sh',
      '',
    ].join('\n');
    expect(await patch(renamed)).toMatchObject({ success: true });
    expect(modeOf(ws.path('go.sh'))).toBe(0o755);
    expect(readFileSync(ws.path('go.sh'), 'utf8')).toBe('#!/bin/sh\necho bye\n');
  });

  it('honours git mode lines: new file mode, a mode change with or without hunks', async () => {
    ws.write('tool.sh', 'echo 1\n');
    ws.write('lib.sh', 'echo 2\n');
    chmodSync(ws.path('tool.sh'), 0o644);
    chmodSync(ws.path('lib.sh'), 0o755);
    const diff = gitDiff(
      { 'tool.sh': 'echo 1\n', 'lib.sh': 'echo 2\n' },
      (repo) => {
        chmodSync(repo.path('tool.sh'), 0o755);
        repo.write('lib.sh', 'echo 3\n');
        chmodSync(repo.path('lib.sh'), 0o644);
        repo.write('new.sh', 'echo new\n');
        chmodSync(repo.path('new.sh'), 0o755);
      },
      { 'lib.sh': 0o755 },
    );
    expect(diff).toContain('new mode 100755');
    expect(diff).toContain('new file mode 100755');
    expect(diff).toContain('old mode 100755');
    const out = await patch(diff);
    expect(out).toMatchObject({ success: true });
    expect(out.files).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ relative: 'tool.sh', mode: '755', added: 0, removed: 0 }),
        expect.objectContaining({ relative: 'new.sh', mode: '755' }),
      ]),
    );
    expect(modeOf(ws.path('tool.sh'))).toBe(0o755);
    expect(readFileSync(ws.path('tool.sh'), 'utf8')).toBe('echo 1\n');
    expect(modeOf(ws.path('lib.sh'))).toBe(0o644);
    expect(readFileSync(ws.path('lib.sh'), 'utf8')).toBe('echo 3\n');
    expect(modeOf(ws.path('new.sh'))).toBe(0o755);
  });

  it('refuses binary patches, links, submodules and copies as unsupported_patch, writing nothing', async () => {
    const before = snapshotTree(ws.root);
    const refused = [
      'diff --git a/i.png b/i.png\nindex 1..2 100644\nBinary files a/i.png and b/i.png differ\n',
      'diff --git a/i.png b/i.png\nindex 1..2 100644\nGIT binary patch\nliteral 1\nIcmZPo000310RR91\n\n',
      'diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+keep.txt\n\\ No newline at end of file\n',
      'diff --git a/m b/m\nnew file mode 160000\nindex 0000000..1234567\n--- /dev/null\n+++ b/m\n@@ -0,0 +1 @@\n+Subproject commit 1234567\n',
      'diff --git a/keep.txt b/copy.txt\nsimilarity index 100%\ncopy from keep.txt\ncopy to copy.txt\n',
      'diff -ru a/x.bin b/x.bin\nBinary files a/x.bin and b/x.bin differ\n',
    ];
    for (const text of refused) expect(await patch(text)).toMatchObject({ error_code: 'unsupported_patch' });
    expect(snapshotTree(ws.root)).toEqual(before);
  });

  it('patches a Latin-1 file on its bytes when every hunk matches them, and refuses it otherwise', async () => {
    const latin = Buffer.from('caf\xe9\nline two\nna\xefve end\n', 'latin1');
    writeFileSync(ws.path('old.txt'), latin);
    const ascii = '*** Begin Patch\n*** Update File: old.txt\n@@\n-line two\n+LINE TWO\n*** End Patch';
    expect(await patch(ascii)).toMatchObject({ success: true });
    expect(readFileSync(ws.path('old.txt'))).toEqual(Buffer.from('caf\xe9\nLINE TWO\nna\xefve end\n', 'latin1'));
    // The patch's "é" is two UTF-8 bytes; the file holds one Latin-1 byte there: no match, nothing written.
    const accented = '*** Begin Patch\n*** Update File: old.txt\n@@\n-café\n+tea\n*** End Patch';
    expect(await patch(accented)).toMatchObject({ error_code: 'unsupported_encoding', hunk_index: 0 });
    expect(readFileSync(ws.path('old.txt'))).toEqual(Buffer.from('caf\xe9\nLINE TWO\nna\xefve end\n', 'latin1'));
  });

  it('patches a Latin-1 file the way git apply does (same bytes from the same unified diff)', async () => {
    const latin = Buffer.from('h\xe9\r\nmid\nend\xff\n', 'latin1');
    writeFileSync(ws.path('peer.txt'), latin);
    const diff = '--- a/peer.txt\n+++ b/peer.txt\n@@ -1,3 +1,3 @@\n h\xe9\r\n-mid\n+MID\n end\xff\n';
    const peer = makeWorkspace({});
    try {
      writeFileSync(peer.path('peer.txt'), latin);
      writeFileSync(peer.path('p.diff'), Buffer.from(diff, 'latin1'));
      execFileSync('git', ['apply', 'p.diff'], { cwd: peer.root });
      // Our patch is text: the same hunk with the non-ASCII lines left out as context is applied on bytes.
      const ours = '--- a/peer.txt\n+++ b/peer.txt\n@@ -2,1 +2,1 @@\n-mid\n+MID\n';
      expect(await patch(ours)).toMatchObject({ success: true });
      expect(readFileSync(ws.path('peer.txt'))).toEqual(readFileSync(peer.path('peer.txt')));
    } finally {
      peer.cleanup();
    }
  });

  it('refuses an empty patch in either format', async () => {
    expect(await patch('*** Begin Patch\n*** End Patch\n')).toMatchObject({ error_code: 'invalid_patch' });
    expect(await patch('*** Begin Patch\n\n*** End Patch')).toMatchObject({ error_code: 'invalid_patch' });
    expect(await patch('Index: nothing\n')).toMatchObject({ error_code: 'invalid_patch' });
    expect(existsSync(ws.path('keep.txt'))).toBe(true);
  });
});
