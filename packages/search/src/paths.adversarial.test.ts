import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, refused, searchIn } from '../test/helpers.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({
    'code.ts': 'const canary = "visible";\n',
    '.env': 'TOKEN=canary-dotenv\n',
    '.env.local': 'TOKEN=canary-local\n',
    '.env.': 'TOKEN=canary-trailing-dot\n',
    'sub/.ENV': 'TOKEN=canary-upper\n',
    '.ssh/id_rsa': 'canary-rsa\n',
    'certs/x.pem': 'canary-pem\n',
    'certs/server.KEY': 'canary-key\n',
    '.npmrc': '//registry/:_authToken=canary-npm\n',
    '.env.example': 'TOKEN=canary-template-ok\n',
  });
});
afterEach(() => ws.cleanup());

const SECRETS = ['dotenv', 'local', 'trailing-dot', 'upper', 'rsa', 'pem', 'key', 'npm'].map((s) => `canary-${s}`);

function expectNoSecrets(output: unknown): void {
  const text = JSON.stringify(output);
  for (const secret of SECRETS) expect(text).not.toContain(secret);
  expect(text).not.toContain('OUTSIDE-SECRET-CANARY');
}

describe('protected files', () => {
  it.each([
    {},
    { include_ignored: true },
    { include: '*' },
    { include: '.env' },
    { include: '**/id_rsa' },
    { path: 'sub' },
    { path: 'certs' },
    { case_insensitive: true },
    { fixed_strings: true, pattern: 'canary' },
  ])('grep never shows their contents (%j)', async (fields) => {
    const out = await searchIn(ws, { action: 'grep', pattern: 'canary', ...fields });
    expectNoSecrets(out);
  });

  it('grep still searches allowed templates and says how many results were withheld', async () => {
    const out = ok(await searchIn(ws, { action: 'grep', pattern: 'canary' }));
    expect(out.content).toContain('.env.example:1:TOKEN=canary-template-ok');
    expect(out.content).toContain('code.ts:1:');
    expect(out.skipped.protected).toBeGreaterThanOrEqual(1);
  });

  it('find never lists them but counts them', async () => {
    const out = ok(await searchIn(ws, { action: 'find', pattern: '*', include_ignored: true }));
    const listed = out.content.split('\n');
    expect(listed.sort()).toEqual(['.env.example', 'code.ts']);
    expect(out.skipped.protected).toBe(8);
  });

  it('refuses a protected file given as the path', async () => {
    for (const path of ['.env', 'sub/.ENV', '.ssh/id_rsa', 'certs/x.pem']) {
      const out = await searchIn(ws, { action: 'grep', pattern: 'canary', path });
      refused(out, 'protected_path');
      expectNoSecrets(out);
    }
  });
});

describe('option injection', () => {
  it.each(['--pre=sh', '-f/etc/passwd', '--files', '-L', '--no-config', '-e', '--'])(
    'treats the pattern %j as a pattern, never an option',
    async (pattern) => {
      ws.write('opts.txt', `${pattern} literal\n`);
      const out = ok(await searchIn(ws, { action: 'grep', pattern, fixed_strings: true }));
      expect(out.content).toContain(`opts.txt:1:${pattern} literal`);
      expect(out.content).not.toContain('root:');
      expect(out.count).toBe(1);
    },
  );

  it('treats a regex that starts with a dash as a regex', async () => {
    ws.write('opts.txt', '-f/etc/passwd\n');
    const out = ok(await searchIn(ws, { action: 'grep', pattern: '-f/etc/pass' }));
    expect(out.content).toBe('opts.txt:1:-f/etc/passwd');
  });

  it.each(['--pre=sh', '-g', '!**', '!*.ts', '-', 'a\nb', '[unclosed'])('refuses the include %j', async (include) => {
    const before = readdirSync(ws.root).sort();
    const out = await searchIn(ws, { action: 'grep', pattern: 'canary', include });
    refused(out, 'invalid_glob');
    expect(readdirSync(ws.root).sort()).toEqual(before);
  });
});

describe('containment', () => {
  it('refuses paths outside the workspace, including prefix siblings and links', async () => {
    symlinkSync(ws.outside, ws.path('out-dir'));
    const cases: [string, string][] = [
      ['..', 'outside_workspace'],
      ['../ws-evil', 'outside_workspace'],
      [ws.outside, 'outside_workspace'],
      [`${ws.root}-evil`, 'outside_workspace'],
      ['/etc', 'outside_workspace'],
      ['sub/../../ws-evil', 'outside_workspace'],
      ['out-dir', 'symlink_rejected'],
      ['missing', 'not_found'],
    ];
    for (const action of ['grep', 'find'] as const) {
      for (const [path, code] of cases) {
        const out = await searchIn(ws, { action, pattern: action === 'grep' ? 'CANARY' : '*', path });
        expect(out, `${action} ${path}`).toMatchObject({ success: false, error_code: code });
        expectNoSecrets(out);
      }
    }
  });

  it('does not follow links that lead out while walking', async () => {
    symlinkSync(ws.outside, ws.path('out-dir'));
    symlinkSync(join(ws.outside, 'secret.txt'), ws.path('out-file.txt'));
    mkdirSync(ws.path('nested'));
    symlinkSync('../../ws-evil', ws.path('nested/up'));
    for (const fields of [{}, { include_ignored: true }]) {
      const grep = ok(await searchIn(ws, { action: 'grep', pattern: 'OUTSIDE', ...fields }));
      expect(grep.count).toBe(0);
      const find = ok(await searchIn(ws, { action: 'find', pattern: '*secret*', ...fields }));
      expect(find.count).toBe(0);
    }
  });

  it('leaves the outside directory untouched', async () => {
    const before = readdirSync(ws.outside);
    await searchIn(ws, { action: 'grep', pattern: '--pre=touch', path: ws.outside });
    await searchIn(ws, { action: 'grep', pattern: 'x', include: '--pre=touch' });
    expect(readdirSync(ws.outside)).toEqual(before);
    expect(existsSync(join(ws.outside, 'secret.txt'))).toBe(true);
  });
});

describe('request validation', () => {
  it.each([0, -1, 1.5, 1e9, '5', null])('refuses max_results %j', async (max_results) => {
    refused(await searchIn(ws, { action: 'grep', pattern: 'x', max_results }), 'invalid_request');
  });

  it('refuses max_results above a configured lower cap', async () => {
    refused(
      await searchIn(ws, { action: 'find', pattern: '*', max_results: 50 }, { limits: { maxResults: 10 } }),
      'invalid_request',
    );
  });

  it.each([
    { action: 'grep' },
    { action: 'grep', pattern: '' },
    { action: 'replace', pattern: 'x' },
    { action: 'grep', pattern: 'x', follow: true },
  ])('refuses %j', async (request) => {
    refused(await searchIn(ws, request), 'invalid_request');
  });

  it('takes "" and "." as the workspace root, as every directory tool does, and refuses a blank path', async () => {
    for (const action of ['grep', 'find'] as const) {
      const pattern = action === 'grep' ? 'canary' : '*.ts';
      const root = ok(await searchIn(ws, { action, pattern }));
      expect(root.content, action).toContain('code.ts');
      for (const path of ['', '.']) {
        expect(ok(await searchIn(ws, { action, pattern, path })), `${action} ${JSON.stringify(path)}`).toEqual(root);
      }
      for (const path of ['   ', '\t']) refused(await searchIn(ws, { action, pattern, path }), 'invalid_path');
    }
  });
});
