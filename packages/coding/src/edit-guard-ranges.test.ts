import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { patchFiles } from '@bough/editor';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';
import { evidenceNeed, firstUnseenSpan, linesOf, windowFromRows } from './internal/edit-spans.js';

const BODY = [
  'def one():',
  '    return 1',
  '',
  'def two():',
  '    return 2',
  '',
  'def three():',
  '    return 3',
  '',
].join('\n');

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'm.py': BODY, 'other.txt': 'x\n' });
});
afterEach(() => ws.cleanup());

const branchFor = () => toolkitBranch(ws.root, { tools: ['reader', 'editor'], notify: false, diagnostics: false });
const edit = (from: string, to: string, file = 'm.py') => ({
  action: 'edit',
  file_path: file,
  old_string: from,
  new_string: to,
});
const text = () => readFileSync(ws.path('m.py'), 'utf8');

describe('range-aware read-before-edit guard', () => {
  it('allows an edit of lines exactly as read after another process changed other lines', async () => {
    const branch = branchFor();
    await call(branch, 'reader', { action: 'read', path: 'm.py' });
    writeFileSync(ws.path('m.py'), BODY.replace('return 3', 'return 30'));
    const out = await call(branch, 'editor', edit('    return 1', '    return 100'));
    expect(out.success).toBe(true);
    expect(text()).toBe(BODY.replace('return 3', 'return 30').replace('return 1\n', 'return 100\n'));
  });

  it('follows lines that moved: a formatter inserted lines above the edited block', async () => {
    const branch = branchFor();
    await call(branch, 'reader', { action: 'read', path: 'm.py' });
    writeFileSync(ws.path('m.py'), `import os\nimport sys\n\n${BODY}`);
    expect((await call(branch, 'editor', edit('def two():\n    return 2', 'def two():\n    return 22'))).success).toBe(
      true,
    );
    expect(text()).toContain('return 22');
  });

  it('refuses when the replaced lines themselves changed, even at the same size and mtime', async () => {
    const branch = branchFor();
    await call(branch, 'reader', { action: 'read', path: 'm.py' });
    const stamp = new Date('2024-01-01T00:00:00Z');
    utimesSync(ws.path('m.py'), stamp, stamp);
    const changed = BODY.replace('return 2', 'return 9');
    writeFileSync(ws.path('m.py'), changed);
    utimesSync(ws.path('m.py'), stamp, stamp);
    const out = await call(branch, 'editor', edit('    return 9', '    return 0'));
    expect(out).toMatchObject({ success: false, error_code: 'stale_read' });
    expect(String(out.error)).toMatch(/line 5/);
    expect(text()).toBe(changed);
  });

  it('refuses an edit of lines never shown once the file changed', async () => {
    const branch = branchFor();
    await call(branch, 'reader', { action: 'read', path: 'm.py', offset: 0, limit: 2 });
    writeFileSync(ws.path('m.py'), BODY.replace('return 1', 'return 11'));
    const out = await call(branch, 'editor', edit('    return 3', '    return 33'));
    expect(out).toMatchObject({ success: false, error_code: 'stale_read' });
    expect(text()).not.toContain('return 33');
  });

  it('lets the toolkit edit what it wrote itself after an outside change elsewhere', async () => {
    const branch = branchFor();
    await call(branch, 'reader', { action: 'read', path: 'm.py', offset: 0, limit: 2 });
    expect((await call(branch, 'editor', edit('    return 1', '    return 1  # first'))).success).toBe(true);
    writeFileSync(ws.path('m.py'), text().replace('return 3', 'return 3  # formatter'));
    expect((await call(branch, 'editor', edit('    return 1  # first', '    return 1  # again'))).success).toBe(true);
    // Lines the model never saw do not become evidence because the toolkit rewrote the file around them.
    writeFileSync(ws.path('m.py'), text().replace('def three', 'def three_'));
    expect(await call(branch, 'editor', edit('    return 2', '    return 2!'))).toMatchObject({
      error_code: 'stale_read',
    });
  });

  it('needs the whole file as read before an overwrite of a changed file', async () => {
    const branch = branchFor();
    await call(branch, 'reader', { action: 'read', path: 'm.py', offset: 0, limit: 3 });
    writeFileSync(ws.path('m.py'), `${BODY}# tail\n`);
    expect(await call(branch, 'editor', { action: 'write', file_path: 'm.py', content: 'gone\n' })).toMatchObject({
      error_code: 'stale_read',
    });
    await call(branch, 'reader', { action: 'read', path: 'm.py' });
    writeFileSync(ws.path('m.py'), `${BODY}# tail\n`);
    expect((await call(branch, 'editor', { action: 'write', file_path: 'm.py', content: 'new\n' })).success).toBe(true);
  });
});

describe('edit spans and evidence (pure)', () => {
  it('reads rows back into lines and marks cut rows as unseen', () => {
    expect(windowFromRows('3\tab\n4\tcd … [line cut: 12 more characters]', 3)).toEqual(['ab', null]);
    expect(windowFromRows('3\tab\n9\tcd', 3)).toBeUndefined();
    expect(linesOf('a\r\nb\n')).toEqual(['a', 'b']);
  });

  it('locates every occurrence of old_string, across CRLF, and falls back to the digest when it cannot', () => {
    expect(evidenceNeed(edit('two', 'x'), BODY)).toEqual({ kind: 'spans', spans: [{ start: 4, end: 4 }] });
    expect(evidenceNeed(edit('return', 'x'), BODY)).toMatchObject({
      spans: [{ start: 2 }, { start: 5 }, { start: 8 }],
    });
    expect(evidenceNeed(edit('a\nb\n', 'x'), 'z\r\na\r\nb\r\n')).toEqual({
      kind: 'spans',
      spans: [{ start: 2, end: 3 }],
    });
    expect(evidenceNeed(edit('absent', 'x'), BODY)).toEqual({ kind: 'digest' });
    expect(evidenceNeed({ action: 'something_new', file_path: 'm.py' }, BODY)).toEqual({ kind: 'digest' });
    expect(
      evidenceNeed(
        {
          action: 'multi_edit',
          edits: [
            { old_string: 'two', new_string: 'deux' },
            { old_string: 'deux', new_string: 'zwei' },
          ],
        },
        BODY,
      ),
    ).toEqual({ kind: 'spans', spans: [{ start: 4, end: 4 }] });
  });

  it('accepts spans seen in place across windows or shifted inside one window, nothing else', () => {
    const file = ['a', 'b', 'c', 'd'];
    const windows = [
      { startLine: 1, lines: ['a', 'b'], callId: 'r1' },
      { startLine: 3, lines: ['c', null], callId: 'r2' },
    ];
    expect(firstUnseenSpan(file, [{ start: 1, end: 3 }], windows)).toBeUndefined();
    expect(firstUnseenSpan(file, [{ start: 4, end: 4 }], windows)).toEqual({ start: 4, end: 4 });
    expect(firstUnseenSpan(['new', 'a', 'b'], [{ start: 2, end: 3 }], windows)).toBeUndefined();
  });

  it('names every file of an apply_patch or unified diff', () => {
    const apply = [
      '*** Begin Patch',
      '*** Add File: n.txt',
      '+x',
      '*** Update File: a.py',
      '*** Move to: b.py',
      '@@',
      '-1',
      '+2',
      '*** Delete File: c.py',
      '*** End Patch',
    ];
    expect(patchFiles(apply.join('\n'))).toMatchObject({ success: true, format: 'apply_patch' });
    expect(files(apply.join('\n'))).toEqual([
      { path: 'n.txt', kind: 'add' },
      { path: 'a.py', kind: 'update' },
      { path: 'b.py', kind: 'move_to' },
      { path: 'c.py', kind: 'delete' },
    ]);
    const diff = [
      'diff --git a/x.py b/x.py',
      '--- a/x.py',
      '+++ b/x.py',
      '@@ -1 +1 @@',
      '-a',
      '+b',
      'diff --git a/new.py b/new.py',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/new.py',
      '@@ -0,0 +1 @@',
      '+n',
      'diff --git a/old.py b/old.py',
      'deleted file mode 100644',
      '--- a/old.py',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-o',
    ];
    expect(files(diff.join('\n'))).toEqual([
      { path: 'x.py', kind: 'update' },
      { path: 'new.py', kind: 'add' },
      { path: 'old.py', kind: 'delete' },
    ]);
    expect(patchFiles('not a patch')).toMatchObject({ success: false, line: 1 });
  });
});

function files(patch: string) {
  const parsed = patchFiles(patch);
  return parsed.success ? parsed.files : [];
}

describe("the guard with the editor's multi_edit, move and dry runs", () => {
  it('checks every replaced line of a multi_edit and records what it wrote', async () => {
    const branch = branchFor();
    await call(branch, 'reader', { action: 'read', path: 'm.py', offset: 0, limit: 5 });
    writeFileSync(ws.path('m.py'), BODY.replace('return 3', 'return 3  # outside'));
    const both = {
      action: 'multi_edit',
      file_path: 'm.py',
      edits: [
        { old_string: '    return 1', new_string: '    return -1' },
        { old_string: '    return 2', new_string: '    return -2' },
      ],
    };
    expect((await call(branch, 'editor', both)).success).toBe(true);
    const unseen = {
      action: 'multi_edit',
      file_path: 'm.py',
      edits: [
        { old_string: '    return -1', new_string: '    return 1' },
        { old_string: '    return 3  # outside', new_string: '    return 3' },
      ],
    };
    writeFileSync(ws.path('m.py'), `${text()}# more\n`);
    expect(await call(branch, 'editor', unseen)).toMatchObject({ error_code: 'stale_read' });
    expect(text()).toContain('return 3  # outside');
  });

  it('records nothing for a dry run, carries evidence along a move, and guards an overwritten destination', async () => {
    const branch = branchFor();
    const dry = await call(branch, 'editor', { action: 'write', file_path: 'new.txt', content: 'n\n', dry_run: true });
    expect(dry).toMatchObject({ success: true, dry_run: true });
    await call(branch, 'reader', { action: 'read', path: 'm.py' });
    expect(
      (await call(branch, 'editor', { action: 'move', file_path: 'm.py', destination: 'renamed.py' })).success,
    ).toBe(true);
    const moved = await call(branch, 'editor', edit('    return 1', '    return 7', 'renamed.py'));
    expect(moved.success).toBe(true);
    const over = { action: 'move', file_path: 'renamed.py', destination: 'other.txt', overwrite: true };
    expect(await call(branch, 'editor', over)).toMatchObject({ error_code: 'not_read' });
    expect(readFileSync(ws.path('other.txt'), 'utf8')).toBe('x\n');
    await call(branch, 'reader', { action: 'read', path: 'other.txt' });
    expect((await call(branch, 'editor', over)).success).toBe(true);
  });
});

describe("the guard with the reader's read_many", () => {
  it('counts every file read_many showed as read, and nothing it failed to read', async () => {
    const branch = branchFor();
    const many = await call(branch, 'reader', { action: 'read_many', paths: ['m.py', 'missing.txt'] });
    expect(many.success).toBe(true);
    expect((await call(branch, 'editor', edit('    return 1', '    return 5'))).success).toBe(true);
    expect(await call(branch, 'editor', edit('x', 'y', 'other.txt'))).toMatchObject({ error_code: 'not_read' });
  });
});
