// Adversarial cases for the search tool: option injection, glob escapes, planted ignore/config files, links out,
// special files, and directory ⇄ link swaps while ripgrep walks. Each case checks that no outside or protected
// byte appears, nothing outside changed, and the next search works.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, snapshotTree, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, searchIn } from '../test/helpers.js';
import type { SearchResponse } from './schema.js';

const CANARY = 'OUTSIDE-SECRET-CANARY';
const PROTECTED = 'PROTECTED-SEARCH-CANARY';
const OUTSIDE_NAME = 'only-outside-name.txt';

let ws: TempWorkspace;
let before: string;
let racer: ChildProcess | undefined;

const snapshot = snapshotTree;

beforeEach(() => {
  ws = makeWorkspace({
    'code.ts': 'const needle = 1;\n-e needle\n--pre=sh needle\n',
    'docs/readme.md': 'needle in docs\n',
    '.env': `${PROTECTED} needle\n`,
    '.env.local': `${PROTECTED} needle\n`,
    '.Env.Production.': `${PROTECTED} needle\n`,
    'config/.env.d/inner.txt': `${PROTECTED} needle\n`,
    'keys/server.key': `${PROTECTED} needle\n`,
    'keys/id_ed25519': `${PROTECTED} needle\n`,
    '.env.example': 'template needle\n',
  });
  writeFileSync(join(ws.outside, 'secret.txt'), `${CANARY} needle\n`);
  mkdirSync(join(ws.outside, 'nested'));
  writeFileSync(join(ws.outside, 'nested', OUTSIDE_NAME), `${CANARY} needle nested\n`);
  symlinkSync(ws.outside, ws.path('out'));
  symlinkSync('../ws-evil', ws.path('rel-out'));
  symlinkSync(join(ws.outside, 'secret.txt'), ws.path('file-out.txt'));
  symlinkSync(ws.path('.env'), ws.path('env-alias.txt'));
  before = snapshot(ws.outside);
});

/** Kills the racer and waits until it has really exited, so it cannot touch the tree after the test. */
async function stopRacer(): Promise<void> {
  const child = racer;
  racer = undefined;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGKILL');
  await exited;
}

afterEach(async () => {
  await stopRacer();
  ws.cleanup();
});

async function guarantees(out: SearchResponse, input?: string): Promise<void> {
  expect(snapshot(ws.outside)).toBe(before);
  let text = JSON.stringify(out);
  if (input) text = text.split(JSON.stringify(input).slice(1, -1)).join('<input>');
  expect(text).not.toContain(CANARY);
  expect(text).not.toContain(PROTECTED);
  expect(text).not.toContain(OUTSIDE_NAME);
  expect(text).not.toContain('ws-evil');
  const next = ok(await searchIn(ws, { action: 'grep', pattern: 'needle', path: 'docs' }));
  expect(next.content).toBe('docs/readme.md:1:needle in docs');
}

describe('option injection through pattern, include and path', () => {
  const patterns = [
    '--pre=sh',
    '--pre=cat',
    '-f/etc/passwd',
    '--file=/etc/passwd',
    '-e',
    '--follow',
    '-L',
    '--no-ignore',
    '--ignore-file=/etc/passwd',
    '--files',
    '-uuu',
    '--search-zip',
    '--',
    '-',
  ];
  it.each(patterns)('grep pattern %s is only ever a pattern', async (pattern) => {
    const out = await searchIn(ws, { action: 'grep', pattern, fixed_strings: true, include_ignored: true });
    const result = ok(out);
    for (const line of result.content.split('\n').filter(Boolean)) expect(line).toContain(pattern);
    await guarantees(out, pattern);
  });

  it.each(patterns.filter((p) => p.startsWith('-')))('include %s is refused as invalid_glob', async (include) => {
    const out = await searchIn(ws, { action: 'grep', pattern: 'needle', include });
    expect(out).toMatchObject({ success: false, error_code: 'invalid_glob' });
    await guarantees(out, include);
  });

  it.each(['-', '--files', '--pre=sh', '-L', '--follow'])(
    'path %s is a (missing) path, not an option',
    async (path) => {
      const out = await searchIn(ws, { action: 'grep', pattern: 'needle', path });
      expect(out).toMatchObject({ success: false, error_code: 'not_found' });
      await guarantees(out, path);
    },
  );
});

describe('globs cannot escape or un-protect', () => {
  const includes = [
    '../ws-evil/*',
    '../*',
    '../../**',
    '{code.ts,../ws-evil/secret.txt}',
    '{a,../../x}',
    '**/../../ws-evil/**',
    '/**',
    '/etc/passwd',
    'out/**',
    '**/secret.txt',
    '.env',
    '.env*',
    '**/.env*',
    '*.key',
    '**/id_*',
    '**',
    '*',
    '[.]env',
    '.e?v',
    '{.env,code.ts}',
  ];
  for (const include of includes) {
    it(`grep include ${include}`, async () => {
      const out = await searchIn(ws, { action: 'grep', pattern: 'needle', include, include_ignored: true });
      await guarantees(out, include);
    });
    it(`find pattern ${include}`, async () => {
      const out = await searchIn(ws, { action: 'find', pattern: include, include_ignored: true });
      await guarantees(out, include);
    });
  }

  it('a leading ! is refused for include and find patterns', async () => {
    for (const glob of ['!*.ts', '!.env']) {
      expect(await searchIn(ws, { action: 'grep', pattern: 'needle', include: glob })).toMatchObject({
        error_code: 'invalid_glob',
      });
      expect(await searchIn(ws, { action: 'find', pattern: glob })).toMatchObject({ error_code: 'invalid_glob' });
    }
  });
});

describe('planted configuration inside the workspace', () => {
  const planted: Array<[string, string]> = [
    ['.rgignore', '!.env\n!.env.local\n!**/*.key\n'],
    ['.ignore', '!.env*\n!keys/\n'],
    ['.gitignore', '!.env\n!*\n'],
    ['.ripgreprc', '--follow\n--no-ignore\n--pre=cat\n'],
    ['keys/.ignore', '!*\n'],
  ];
  it.each(planted)('%s cannot un-protect files or make ripgrep follow links', async (name, content) => {
    ws.write(name, content);
    for (const extra of [{}, { include_ignored: true }, { include: '**' }]) {
      const out = await searchIn(ws, { action: 'grep', pattern: 'needle', ...extra });
      expect(ok(out).content).toContain('code.ts:1:const needle = 1;');
      await guarantees(out);
      const found = await searchIn(ws, { action: 'find', pattern: '*', ...extra });
      await guarantees(found);
    }
  });

  it('ripgrep never reads a config file named by the environment', async () => {
    const out = await searchIn(ws, { action: 'grep', pattern: 'needle' });
    expect(ok(out).content).not.toContain('out/');
    await guarantees(out);
  });
});

describe('paths that are links, protected or special', () => {
  const refused: Array<[string, string]> = [
    ['out', 'symlink_rejected'],
    ['out/', 'symlink_rejected'],
    ['out/nested', 'outside_workspace'],
    ['rel-out', 'symlink_rejected'],
    ['rel-out/secret.txt', 'outside_workspace'],
    ['file-out.txt', 'symlink_rejected'],
    ['env-alias.txt', 'symlink_rejected'],
    ['.env', 'protected_path'],
    ['.ENV', 'protected_path'],
    ['.env.local', 'protected_path'],
    ['config/.env.d', 'protected_path'],
    ['keys/server.key', 'protected_path'],
    ['..', 'outside_workspace'],
    ['../ws-evil', 'outside_workspace'],
    ['/proc/self/cwd', 'outside_workspace'],
    ['/proc/self/root', 'outside_workspace'],
    ['/dev/stdin', 'outside_workspace'],
    ['/dev/zero', 'outside_workspace'],
    ['/dev/fd/0', 'outside_workspace'],
    ['/sys', 'outside_workspace'],
  ];
  for (const [path, code] of refused) {
    it.each(['grep', 'find'])(`%s path ${path} → ${code}`, async (action) => {
      const out = await searchIn(ws, { action, pattern: action === 'grep' ? 'needle' : '*', path });
      expect(out).toMatchObject({ success: false, error_code: code });
      await guarantees(out, path);
    });
  }

  it('a FIFO in the tree never hangs a search, and as a path it is refused', async () => {
    execFileSync('mkfifo', [ws.path('docs/pipe')]);
    const out = await searchIn(ws, { action: 'grep', pattern: 'needle' });
    expect(ok(out).content).toContain('docs/readme.md');
    expect(await searchIn(ws, { action: 'grep', pattern: 'x', path: 'docs/pipe' })).toMatchObject({
      error_code: 'special_file',
    });
    await guarantees(out);
  });

  it('links inside the tree are never followed by grep or find', async () => {
    const grep = ok(await searchIn(ws, { action: 'grep', pattern: 'needle', include_ignored: true }));
    expect(grep.content).not.toMatch(/^(out|rel-out|file-out|env-alias)/m);
    const find = ok(await searchIn(ws, { action: 'find', pattern: '**', include_ignored: true }));
    expect(find.content.split('\n')).not.toContain('file-out.txt');
    await guarantees(grep);
    await guarantees(find);
  });

  it('protected names in NFC/NFD or with trailing dots and spaces never show content', async () => {
    ws.write('.env ', `${PROTECTED}\n`);
    ws.write('.ENV..', `${PROTECTED}\n`);
    ws.write('ID_RSA', `${PROTECTED}\n`);
    ws.write('nested/dir/.NETRC', `${PROTECTED}\n`);
    for (const request of [
      { action: 'grep', pattern: PROTECTED },
      { action: 'grep', pattern: 'PROTECTED', case_insensitive: true, include_ignored: true },
      { action: 'find', pattern: '*' },
      { action: 'find', pattern: '*rsa*', case_insensitive: true },
    ]) {
      await guarantees(await searchIn(ws, request));
    }
  });
});

describe('races: directories and files swapped for links while ripgrep walks', () => {
  // Flips `target` between a real directory (with an inside file of the same name) and a link to outside, by
  // renaming prepared entries in and out of place so each state is reached in one system call.
  const RACER = `
const fs = require('node:fs');
const [target, linkTo] = process.argv.slice(-2);
const realDir = target + '.real';
const link = target + '.link';
fs.mkdirSync(realDir);
fs.writeFileSync(realDir + '/secret.txt', 'inside needle\\n');
fs.symlinkSync(linkTo, link);
fs.renameSync(realDir, target);
process.stdout.write('ready\\n');
for (;;) {
  try { fs.renameSync(target, realDir); fs.renameSync(link, target); } catch {}
  try { fs.renameSync(target, link); fs.renameSync(realDir, target); } catch {}
}`;

  async function startRacer(target: string, linkTo: string) {
    racer = spawn(process.execPath, ['-e', RACER, target, linkTo], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((done) => racer?.stdout?.once('data', () => done()));
  }

  it('grep never shows outside content while a directory flips to a link out', async () => {
    await startRacer(ws.path('flip'), ws.outside);
    for (let i = 0; i < 60; i++) {
      const out = await searchIn(ws, { action: 'grep', pattern: 'needle', include_ignored: true });
      expect(JSON.stringify(out)).not.toContain(CANARY);
      expect(out.success).toBe(true);
    }
    await stopRacer();
    await guarantees(ok(await searchIn(ws, { action: 'grep', pattern: 'needle' })));
  }, 60_000);

  it('find never lists outside names while a directory flips to a link out', async () => {
    await startRacer(ws.path('flip'), ws.outside);
    for (let i = 0; i < 60; i++) {
      const out = await searchIn(ws, { action: 'find', pattern: '**', include_ignored: true });
      expect(JSON.stringify(out)).not.toContain(OUTSIDE_NAME);
      expect(out.success).toBe(true);
    }
    await stopRacer();
  }, 60_000);

  it('grep of a file swapped for a link out never shows its target', async () => {
    const swapper = `
const fs = require('node:fs');
const [target, linkTo] = process.argv.slice(-2);
process.stdout.write('ready\\n');
for (;;) {
  try { fs.rmSync(target, { force: true }); } catch {}
  try { fs.symlinkSync(linkTo, target); } catch {}
  try { fs.rmSync(target, { force: true }); } catch {}
  try { fs.writeFileSync(target, 'inside needle\\n'); } catch {}
}`;
    racer = spawn(process.execPath, ['-e', swapper, ws.path('docs/swap.txt'), join(ws.outside, 'secret.txt')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((done) => racer?.stdout?.once('data', () => done()));
    for (let i = 0; i < 60; i++) {
      for (const path of ['docs', 'docs/swap.txt']) {
        const out = await searchIn(ws, { action: 'grep', pattern: 'needle', path });
        expect(JSON.stringify(out)).not.toContain(CANARY);
      }
    }
  }, 60_000);

  it('grep of a large file swapped for a link out never shows its target (offset confirmation)', async () => {
    // Both files are large enough to be confirmed at ripgrep's byte offset, and the outside text sits at the very
    // offset where the inside file has its match.
    const filler = `${'f'.repeat(99)}\n`.repeat(15_000);
    writeFileSync(join(ws.outside, 'big-secret.txt'), `${filler}${CANARY} needle\n`);
    before = snapshot(ws.outside);
    // Flips the file and a link out by renames, so each state is reached in one system call.
    const swapper = `
const fs = require('node:fs');
const [target, linkTo] = process.argv.slice(-2);
const real = target + '.real';
const link = target + '.link';
fs.writeFileSync(target, ('f'.repeat(99) + '\\n').repeat(15000) + 'inside needle\\n');
fs.symlinkSync(linkTo, link);
process.stdout.write('ready\\n');
for (;;) {
  try { fs.renameSync(target, real); fs.renameSync(link, target); } catch {}
  try { fs.renameSync(target, link); fs.renameSync(real, target); } catch {}
}`;
    mkdirSync(ws.path('logs'));
    racer = spawn(process.execPath, ['-e', swapper, ws.path('logs/big.txt'), join(ws.outside, 'big-secret.txt')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((done) => racer?.stdout?.once('data', () => done()));
    for (let i = 0; i < 40; i++) {
      for (const path of ['logs', 'logs/big.txt']) {
        const out = await searchIn(ws, { action: 'grep', pattern: 'needle', path });
        expect(JSON.stringify(out)).not.toContain(CANARY);
      }
    }
    await stopRacer();
    await guarantees(ok(await searchIn(ws, { action: 'grep', pattern: 'needle', path: 'logs' })));
  }, 60_000);
});

describe('odd but legal input', () => {
  it('a workspace root that does not exist is a typed failure', async () => {
    const { handleSearch } = await import('./handle-search.js');
    const out = await handleSearch({ action: 'grep', pattern: 'x' }, { workspaceRoot: join(ws.root, 'gone') });
    expect(out).toMatchObject({ success: false, error_code: 'workspace_unavailable' });
  });

  it('names with newlines and control characters stay on one line and never break parsing', async () => {
    ws.write('weird\nname.txt', 'needle weird\n');
    ws.write('tab\tname.txt', 'needle tab\n');
    const out = ok(await searchIn(ws, { action: 'grep', pattern: 'needle weird|needle tab' }));
    expect(out.content.split('\n').sort()).toEqual([
      'tab\\x09name.txt:1:needle tab',
      'weird\\x0aname.txt:1:needle weird',
    ]);
    await guarantees(out);
  });

  it('a minified line is cut with a marker and still confirmed', async () => {
    ws.write('min.js', `${'x'.repeat(5000)}needle${'y'.repeat(5000)}\n`);
    const out = ok(await searchIn(ws, { action: 'grep', pattern: 'needle', path: 'min.js' }));
    expect(out.shown).toBe(1);
    expect(out.content).toContain('[line cut at');
  });

  it('UTF-16 files with a byte-order mark are still reported', async () => {
    ws.write('utf16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello needle\n', 'utf16le')]));
    const out = ok(await searchIn(ws, { action: 'grep', pattern: 'needle', path: 'utf16.txt' }));
    expect(out.content).toBe('utf16.txt:1:hello needle');
  });
});
