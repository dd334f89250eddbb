import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, snapshotTree, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// The workspace transaction's test seam (not exported by the package): a test makes one exact step fail.
import { transactionFaults } from '../../workspace/src/transaction.js';
import { handleEditor } from './index.js';

type Out = Record<string, unknown> & { success: boolean; error_code?: string; error?: string };

function contentTree(dir: string, rel = '.'): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const abs = join(dir, name);
    const st = lstatSync(abs);
    if (st.isDirectory()) out.push(`${rel}/${name}/`, ...contentTree(abs, `${rel}/${name}`));
    else out.push(`${rel}/${name} ${st.mode.toString(8)} ${st.isFile() ? readFileSync(abs, 'base64') : 'link'}`);
  }
  return out;
}

const FILES = {
  'src/app.py': 'import os\n\n\ndef greet():\n    print("Hi")\n    return 1\n\n\ndef other():\n    return 2\n',
  'src/win.txt': 'one\r\ntwo\r\nthree\r\n',
  'README.md': '# Title\n\nBuild it.\n',
  'old.txt': 'obsolete\n',
};

describe('patch', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace(FILES);
  });
  afterEach(() => {
    transactionFaults.beforeStep = undefined;
    ws.cleanup();
  });
  const patch = async (text: string, extra: Record<string, unknown> = {}) =>
    (await handleEditor({ action: 'patch', patch: text, ...extra }, { workspaceRoot: ws.root })) as Out;

  const APPLY = [
    '*** Begin Patch',
    '*** Add File: docs/notes.md',
    '+# Notes',
    '+',
    '+hello',
    '*** Update File: src/app.py',
    '*** Move to: src/main.py',
    '@@ def greet():',
    '-    print("Hi")',
    '+    print("Hello, world!")',
    '     return 1',
    '*** Update File: src/win.txt',
    '@@',
    ' one',
    '-two',
    '+TWO',
    '+TWO-B',
    '*** Delete File: old.txt',
    '*** Update File: README.md',
    '@@',
    ' Build it.',
    '+Test it.',
    '*** End of File',
    '*** End Patch',
  ].join('\n');

  it('applies an apply_patch with add, update+move, CRLF update, delete and end-of-file', async () => {
    const mode = 0o751;
    chmodSync(ws.path('src/app.py'), mode);
    const out = await patch(APPLY);
    expect(out).toMatchObject({ success: true, action: 'patch' });
    expect(out.files).toEqual([
      { op: 'add', relative: 'docs/notes.md', added: 3, removed: 0 },
      {
        op: 'move',
        relative: 'src/main.py',
        from: 'src/app.py',
        added: 1,
        removed: 1,
        hunks: [{ strategy: 'exact', start_line: 5, end_line: 6 }],
      },
      {
        op: 'update',
        relative: 'src/win.txt',
        added: 2,
        removed: 1,
        hunks: [{ strategy: 'exact', start_line: 1, end_line: 3 }],
      },
      { op: 'delete', relative: 'old.txt', added: 0, removed: 1 },
      {
        op: 'update',
        relative: 'README.md',
        added: 1,
        removed: 0,
        hunks: [{ strategy: 'exact', start_line: 3, end_line: 4 }],
      },
    ]);
    expect(readFileSync(ws.path('docs/notes.md'), 'utf8')).toBe('# Notes\n\nhello\n');
    expect(existsSync(ws.path('src/app.py'))).toBe(false);
    expect(readFileSync(ws.path('src/main.py'), 'utf8')).toBe(FILES['src/app.py'].replace('"Hi"', '"Hello, world!"'));
    expect(readFileSync(ws.path('src/win.txt'), 'utf8')).toBe('one\r\nTWO\r\nTWO-B\r\nthree\r\n');
    expect(existsSync(ws.path('old.txt'))).toBe(false);
    expect(readFileSync(ws.path('README.md'), 'utf8')).toBe('# Title\n\nBuild it.\nTest it.\n');
    expect(out.diff).toContain('--- /dev/null\n+++ b/docs/notes.md');
    expect(out.diff).toContain('--- a/src/app.py\n+++ b/src/main.py');
    expect(out.diff).toContain('--- a/old.txt\n+++ /dev/null');
    expect(contentTree(ws.root).filter((l) => l.includes('.bk-'))).toEqual([]);
  });

  it('applies a git diff produced by git itself, byte for byte like git apply', async () => {
    const repo = makeWorkspace(FILES);
    try {
      const git = (...args: string[]) => execFileSync('git', args, { cwd: repo.root, encoding: 'utf8' });
      git('init', '-q');
      git('add', '-A');
      git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'base');
      repo.write(
        'src/app.py',
        FILES['src/app.py'].replace('return 2', 'return 3').replace('import os', 'import os\nimport sys'),
      );
      repo.write('new/file.txt', 'fresh\n');
      execFileSync('rm', [repo.path('old.txt')]);
      git('add', '-A');
      git('mv', 'README.md', 'README2.md');
      const diff = git('diff', '--cached', '-M');
      const out = await patch(diff);
      expect(out).toMatchObject({ success: true });
      expect(readFileSync(ws.path('src/app.py'), 'utf8')).toBe(readFileSync(repo.path('src/app.py'), 'utf8'));
      expect(readFileSync(ws.path('new/file.txt'), 'utf8')).toBe('fresh\n');
      expect(readFileSync(ws.path('README2.md'), 'utf8')).toBe(FILES['README.md']);
      expect(existsSync(ws.path('README.md'))).toBe(false);
      expect(existsSync(ws.path('old.txt'))).toBe(false);
    } finally {
      repo.cleanup();
    }
  });

  it('applies diff -u output, keeping a missing final newline', async () => {
    ws.write('n.txt', 'a\nb');
    const text = [
      '--- n.txt\t2024-01-01',
      '+++ n.txt\t2024-01-02',
      '@@ -1,2 +1,2 @@',
      ' a',
      '-b',
      '\\ No newline at end of file',
      '+c',
      '\\ No newline at end of file',
      '',
    ].join('\n');
    expect(await patch(text)).toMatchObject({ success: true });
    expect(readFileSync(ws.path('n.txt'), 'utf8')).toBe('a\nc');
  });

  it('dry_run validates everything and returns the same files and diff, writing nothing', async () => {
    const before = snapshotTree(ws.root);
    const dry = await patch(APPLY, { dry_run: true });
    expect(dry).toMatchObject({ success: true, dry_run: true });
    expect(snapshotTree(ws.root)).toBe(before);
    const real = await patch(APPLY);
    expect(dry.files).toEqual(real.files);
    expect(dry.diff).toBe(real.diff);
  });

  it('validates every hunk of every file before writing: a bad last hunk leaves everything untouched', async () => {
    const before = contentTree(ws.root);
    const text = APPLY.replace(' Build it.', ' Build it NOT.');
    const out = await patch(text);
    expect(out).toMatchObject({ success: false, error_code: 'patch_conflict', file: 'README.md', hunk_index: 0 });
    expect(contentTree(ws.root)).toEqual(before);
  });

  it('two places with the same lines are refused, not guessed', async () => {
    ws.write('dup.txt', 'x = 1\ny = 2\n\nx = 1\ny = 2\n');
    const out = await patch(
      ['*** Begin Patch', '*** Update File: dup.txt', '@@', '-x = 1', '+x = 9', ' y = 2', '*** End Patch'].join('\n'),
    );
    expect(out).toMatchObject({ success: false, error_code: 'patch_conflict', candidate_lines: [1, 4] });
    expect(readFileSync(ws.path('dup.txt'), 'utf8')).toBe('x = 1\ny = 2\n\nx = 1\ny = 2\n');
  });

  it('a hunk off by indentation is applied loosely and reported, unless exact', async () => {
    // Two spaces where the file has four, consistently: the new line is shifted the same way.
    const text = [
      '*** Begin Patch',
      '*** Update File: src/app.py',
      '@@',
      '-  print("Hi")',
      '+  print("Hey")',
      '   return 1',
      '*** End Patch',
    ].join('\n');
    expect(await patch(text, { exact: true })).toMatchObject({ success: false, error_code: 'patch_conflict' });
    const out = await patch(text);
    expect(out).toMatchObject({ success: true });
    expect((out.files as Array<{ hunks: Array<{ strategy: string }> }>)[0]!.hunks[0]!.strategy).toBe('indentation');
    expect(readFileSync(ws.path('src/app.py'), 'utf8')).toContain('    print("Hey")\n    return 1\n');
  });

  it('an inconsistent indentation change is refused', async () => {
    const text = [
      '*** Begin Patch',
      '*** Update File: src/app.py',
      '@@',
      ' def other():',
      '-return 2',
      '+return 5',
      '*** End Patch',
    ].join('\n');
    expect(await patch(text)).toMatchObject({ success: false, error_code: 'patch_conflict' });
  });

  it('reports unreadable patches with the line', async () => {
    expect(await patch('hello')).toMatchObject({ error_code: 'invalid_patch' });
    expect(await patch('*** Begin Patch\n*** Frobnicate: x\n*** End Patch')).toMatchObject({
      error_code: 'invalid_patch',
      patch_line: 2,
    });
    expect(await patch('*** Begin Patch\n*** Add File: x\n+y\n')).toMatchObject({ error_code: 'invalid_patch' });
    expect(await patch('--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n')).toMatchObject({ error_code: 'invalid_patch' });
  });

  describe('paths (adversarial)', () => {
    const cases: Array<[string, string, string]> = [
      ['traversal add', '*** Add File: ../ws-evil/pwn.txt\n+x', 'outside_workspace'],
      ['deep traversal', '*** Add File: src/../../ws-evil/pwn.txt\n+x', 'outside_workspace'],
      ['absolute outside', '*** Add File: /tmp/bough-pwn.txt\n+x', 'outside_workspace'],
      ['absolute outside update', '*** Update File: /etc/hostname\n@@\n-x\n+y', 'outside_workspace'],
      ['delete outside', '*** Delete File: ../ws-evil/secret.txt', 'outside_workspace'],
      [
        'move target outside',
        '*** Update File: README.md\n*** Move to: ../ws-evil/README.md\n@@\n # Title\n+x',
        'outside_workspace',
      ],
      ['symlinked target', '*** Update File: link.md\n@@\n # Title\n+x', 'symlink_rejected'],
      ['delete symlink', '*** Delete File: link.md', 'symlink_rejected'],
      ['symlinked parent outside', '*** Add File: out/pwn.txt\n+x', 'outside_workspace'],
      [
        'symlinked parent outside update',
        '*** Update File: out/secret.txt\n@@\n-OUTSIDE-SECRET-CANARY\n+x',
        'outside_workspace',
      ],
      ['protected add', '*** Add File: .env\n+X=1', 'protected_path'],
      ['protected update', '*** Update File: .env.local\n@@\n-A=1\n+A=2', 'protected_path'],
      ['protected delete', '*** Delete File: keys/id_rsa', 'protected_path'],
      [
        'protected move target',
        '*** Update File: README.md\n*** Move to: server.key\n@@\n # Title\n+x',
        'protected_path',
      ],
      ['git hook', '*** Add File: .git/hooks/pre-commit\n+#!/bin/sh', 'protected_path'],
      ['git config', '*** Update File: .git/config\n@@\n-[core]\n+[core]\n+\thooksPath = x', 'protected_path'],
      ['git delete', '*** Delete File: .git/HEAD', 'protected_path'],
      ['move onto existing', '*** Update File: README.md\n*** Move to: old.txt\n@@\n # Title\n+x', 'already_exists'],
      ['add over existing', '*** Add File: old.txt\n+x', 'already_exists'],
      ['delete a directory', '*** Delete File: src', 'not_a_file'],
      ['update a directory', '*** Update File: src\n@@\n-x\n+y', 'not_a_file'],
      ['delete missing', '*** Delete File: nope.txt', 'not_found'],
      ['same file twice', '*** Update File: README.md\n@@\n # Title\n+x\n*** Delete File: README.md', 'invalid_patch'],
      ['NUL in path', '*** Add File: a\u0000b\n+x', 'invalid_path'],
    ];
    for (const [name, body, code] of cases) {
      it(`${name}: ${code}, nothing inside or outside changes`, async () => {
        ws.write('.env.local', 'A=1\n');
        ws.write('keys/id_rsa', 'KEY\n');
        ws.write('.git/config', '[core]\n');
        ws.write('.git/HEAD', 'ref: refs/heads/main\n');
        symlinkSync(ws.path('README.md'), ws.path('link.md'));
        symlinkSync(ws.outside, ws.path('out'));
        const inside = contentTree(ws.root);
        const outside = snapshotTree(ws.outside);
        // Each bad file comes after a good one, so a half-applied patch would show.
        const text = `*** Begin Patch\n*** Add File: first.txt\n+ok\n${body}\n*** End Patch`;
        const out = await patch(text);
        expect(out.error_code).toBe(code);
        expect(out.error).not.toContain('OUTSIDE-SECRET');
        expect(contentTree(ws.root)).toEqual(inside);
        expect(snapshotTree(ws.outside)).toBe(outside);
        expect(existsSync('/tmp/bough-pwn.txt')).toBe(false);
      });
    }
  });

  describe('rollback', () => {
    const steps = ['check', 'stage', 'verify', 'commit'] as const;
    for (const step of steps) {
      for (const index of [0, 2, 5]) {
        it(`a failure at ${step} of change ${index} restores the tree byte for byte and says where`, async () => {
          const before = contentTree(ws.root);
          const outside = snapshotTree(ws.outside);
          transactionFaults.beforeStep = (s, i) => {
            if (s === step && i === index) throw new Error('injected failure');
          };
          const out = await patch(APPLY);
          expect(out).toMatchObject({ success: false, step });
          expect(typeof out.file).toBe('string');
          expect(out.error).toMatch(new RegExp(`stopped at the ${step} step`));
          expect(contentTree(ws.root)).toEqual(before);
          expect(snapshotTree(ws.outside)).toBe(outside);
        });
      }
    }

    it('a file changed between validation and commit aborts the whole patch', async () => {
      transactionFaults.beforeStep = (s, i) => {
        if (s === 'verify' && i === 0) ws.write('src/win.txt', 'one\r\ntwo\r\nthree!\r\n');
      };
      const out = await patch(APPLY);
      expect(out).toMatchObject({ success: false, error_code: 'file_changed', file: 'src/win.txt', step: 'verify' });
      expect(existsSync(ws.path('docs'))).toBe(false);
      expect(readFileSync(ws.path('old.txt'), 'utf8')).toBe('obsolete\n');
      expect(statSync(ws.path('src/app.py')).isFile()).toBe(true);
    });
  });
});
