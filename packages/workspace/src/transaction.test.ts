import { existsSync, lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, snapshotTree, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ChangeStep, type FileChange, transactionFaults } from './transaction.js';
import { Workspace } from './workspace.js';

/** Names, modes and bytes of every entry (inodes and directory times left out: a rollback restores content). */
function contentTree(dir: string, rel = '.'): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const abs = join(dir, name);
    const st = lstatSync(abs);
    if (st.isDirectory()) out.push(`${rel}/${name}/ ${st.mode.toString(8)}`, ...contentTree(abs, `${rel}/${name}`));
    else out.push(`${rel}/${name} ${st.mode.toString(8)} ${st.isFile() ? readFileSync(abs, 'base64') : 'link'}`);
  }
  return out;
}

describe('applyChanges', () => {
  let ws: TempWorkspace;
  let workspace: Workspace;
  beforeEach(async () => {
    ws = makeWorkspace({ 'a.txt': 'A\n', 'b.txt': 'B\n', 'sub/c.txt': 'C\n' });
    workspace = await Workspace.open(ws.root);
  });
  afterEach(() => {
    transactionFaults.beforeStep = undefined;
    ws.cleanup();
  });
  const bytes = (s: string) => Buffer.from(s);
  const plan = (): FileChange[] => [
    { kind: 'replace', path: 'a.txt', data: bytes('A2\n'), expected: bytes('A\n') },
    { kind: 'create', path: 'new/deep/d.txt', data: bytes('D\n') },
    { kind: 'delete', path: 'b.txt', expected: bytes('B\n') },
    { kind: 'replace', path: 'sub/c.txt', data: bytes('C2\n'), expected: bytes('C\n') },
  ];

  it('applies every change and leaves no temp or backup file', async () => {
    const out = await workspace.applyChanges(plan());
    expect(out).toMatchObject({ success: true, relative: ['a.txt', 'new/deep/d.txt', 'b.txt', 'sub/c.txt'] });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('A2\n');
    expect(readFileSync(ws.path('new/deep/d.txt'), 'utf8')).toBe('D\n');
    expect(existsSync(ws.path('b.txt'))).toBe(false);
    expect(readFileSync(ws.path('sub/c.txt'), 'utf8')).toBe('C2\n');
    expect(contentTree(ws.root).filter((l) => l.includes('.bk-'))).toEqual([]);
  });

  it("sets the asked mode of a replaced or created file, and keeps a replaced file's own mode otherwise", async () => {
    ws.write('run.sh', 'echo\n', 0o755);
    const out = await workspace.applyChanges([
      { kind: 'replace', path: 'a.txt', data: bytes('A\n'), expected: bytes('A\n'), mode: 0o755 },
      { kind: 'create', path: 'tool.sh', data: bytes('x\n'), mode: 0o750 },
      { kind: 'replace', path: 'run.sh', data: bytes('echo 2\n'), expected: bytes('echo\n') },
    ]);
    expect(out.success).toBe(true);
    expect(lstatSync(ws.path('a.txt')).mode & 0o777).toBe(0o755);
    expect(lstatSync(ws.path('tool.sh')).mode & 0o777).toBe(0o750);
    expect(lstatSync(ws.path('run.sh')).mode & 0o777).toBe(0o755);
  });

  const steps: ChangeStep[] = ['check', 'stage', 'verify', 'commit'];
  for (const step of steps) {
    for (const index of [0, 1, 2, 3]) {
      it(`a failure at ${step} of change ${index} leaves the tree exactly as before`, async () => {
        const before = contentTree(ws.root);
        transactionFaults.beforeStep = (s, i) => {
          if (s === step && i === index) throw new Error('injected');
        };
        const out = await workspace.applyChanges(plan());
        expect(out).toMatchObject({ success: false, failed_step: step, failed_path: plan()[index]!.path });
        expect(contentTree(ws.root)).toEqual(before);
      });
    }
  }

  it('aborts everything when a file changed between validation and commit', async () => {
    writeFileSync(ws.path('sub/c.txt'), 'C-changed\n');
    const before = contentTree(ws.root);
    const out = await workspace.applyChanges(plan());
    expect(out).toMatchObject({
      success: false,
      error_code: 'changed_during_check',
      failed_step: 'verify',
      failed_path: 'sub/c.txt',
    });
    expect(contentTree(ws.root)).toEqual(before);
  });

  it('a same-size rewrite after the check is caught by the byte comparison', async () => {
    transactionFaults.beforeStep = (s, i) => {
      if (s === 'verify' && i === 0) writeFileSync(ws.path('a.txt'), 'Z\n');
    };
    const out = await workspace.applyChanges(plan());
    expect(out).toMatchObject({ success: false, failed_step: 'verify', failed_path: 'a.txt' });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('Z\n');
    expect(existsSync(ws.path('new'))).toBe(false);
    expect(readFileSync(ws.path('b.txt'), 'utf8')).toBe('B\n');
  });

  // Up to 1 MiB the content is staged and re-read with synchronous calls, above it with asynchronous ones: both paths.
  for (const size of [64 * 1024, 3 * 1024 * 1024]) {
    it(`a ${size >> 10} KiB file: replaced exactly, and a same-size rewrite after the check is caught`, async () => {
      const old = Buffer.alloc(size, 'o');
      const next = Buffer.alloc(size + 7, 'n');
      writeFileSync(ws.path('big.bin'), old);
      const change: FileChange = { kind: 'replace', path: 'big.bin', data: next, expected: old };
      expect(await workspace.applyChanges([change])).toMatchObject({ success: true });
      expect(readFileSync(ws.path('big.bin')).equals(next)).toBe(true);
      writeFileSync(ws.path('big.bin'), old);
      transactionFaults.beforeStep = (s) => {
        if (s === 'verify') writeFileSync(ws.path('big.bin'), Buffer.alloc(size, 'x'));
      };
      const out = await workspace.applyChanges([change]);
      expect(out).toMatchObject({ success: false, error_code: 'changed_during_check', failed_step: 'verify' });
      expect(readFileSync(ws.path('big.bin')).equals(Buffer.alloc(size, 'x'))).toBe(true);
      expect(contentTree(ws.root).filter((l) => l.includes('.bk-'))).toEqual([]);
    });
  }

  it('a file that appears at a create target before commit aborts without overwriting it', async () => {
    transactionFaults.beforeStep = (s, i) => {
      if (s === 'commit' && i === 1) writeFileSync(ws.path('new/deep/d.txt'), 'RACER\n');
    };
    const out = await workspace.applyChanges(plan());
    expect(out).toMatchObject({ success: false, failed_step: 'commit', rolled_back: true });
    expect(readFileSync(ws.path('new/deep/d.txt'), 'utf8')).toBe('RACER\n');
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('A\n');
  });

  it('refuses links, protected names, .git, outside paths, directories and doubles before touching anything', async () => {
    ws.write('.env', 'S=1\n');
    ws.write('.git/HEAD', 'ref\n');
    symlinkSync(ws.path('a.txt'), ws.path('link.txt'));
    symlinkSync(ws.outside, ws.path('out'));
    const outsideBefore = snapshotTree(ws.outside);
    const before = contentTree(ws.root);
    const bad: Array<[FileChange, string]> = [
      [{ kind: 'replace', path: 'link.txt', data: bytes('x'), expected: bytes('A\n') }, 'symlink_rejected'],
      [{ kind: 'create', path: 'out/new.txt', data: bytes('x') }, 'outside_workspace'],
      [{ kind: 'create', path: '../ws-evil/new.txt', data: bytes('x') }, 'outside_workspace'],
      [{ kind: 'delete', path: '.env', expected: bytes('S=1\n') }, 'protected_path'],
      [{ kind: 'create', path: '.git/hooks/pre-commit', data: bytes('x') }, 'protected_path'],
      [{ kind: 'delete', path: 'sub', expected: bytes('') }, 'not_a_file'],
      [{ kind: 'create', path: 'a.txt', data: bytes('x') }, 'already_exists'],
      [{ kind: 'delete', path: 'a.txt', expected: bytes('A\n') }, 'invalid_path'],
    ];
    for (const [change, code] of bad) {
      const out = await workspace.applyChanges([
        { kind: 'replace', path: 'a.txt', data: bytes('A2\n'), expected: bytes('A\n') },
        change,
      ]);
      expect({ path: change.path, code: out.success ? 'ok' : out.error_code }).toEqual({ path: change.path, code });
    }
    const late = await workspace.applyChanges([
      { kind: 'create', path: 'made/for/it.txt', data: bytes('x') },
      { kind: 'delete', path: '.env', expected: bytes('S=1\n') },
    ]);
    expect(late).toMatchObject({ success: false, error_code: 'protected_path', failed_path: '.env' });
    expect(existsSync(ws.path('made'))).toBe(false);
    expect(contentTree(ws.root)).toEqual(before);
    expect(snapshotTree(ws.outside)).toBe(outsideBefore);
  });
});
