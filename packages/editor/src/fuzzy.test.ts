import { readFileSync } from 'node:fs';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleEditor } from './index.js';

type Out = Record<string, unknown> & { success: boolean; error_code?: string; strategy?: string };

describe('fuzzy matching tiers', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace();
  });
  afterEach(() => ws.cleanup());
  const edit = async (file: string, old_string: string, new_string: string, extra: Record<string, unknown> = {}) => {
    ws.write('f.txt', file);
    const out = (await handleEditor(
      { action: 'edit', file_path: 'f.txt', old_string, new_string, ...extra },
      { workspaceRoot: ws.root },
    )) as Out;
    return { out, text: readFileSync(ws.path('f.txt'), 'utf8') };
  };

  it('trailing whitespace in the file is not needed in old_string; unchanged lines keep the file text', async () => {
    const { out, text } = await edit('a();   \nb();\nc();\n', 'a();\nb();', 'a();\nB();');
    expect(out).toMatchObject({ success: true, strategy: 'trailing_whitespace', start_line: 1, end_line: 2 });
    expect(text).toBe('a();   \nB();\nc();\n');
  });

  it('a consistent indentation shift is recovered and the new lines are shifted the same way', async () => {
    const file = 'class A {\n    run() {\n        go();\n    }\n}\n';
    const { out, text } = await edit(file, 'run() {\n    go();\n}', 'run() {\n    go();\n    stop();\n}');
    expect(out).toMatchObject({ success: true, strategy: 'indentation', start_line: 2, end_line: 5 });
    expect(text).toBe('class A {\n    run() {\n        go();\n        stop();\n    }\n}\n');
  });

  it('tabs for spaces', async () => {
    const file = 'fn main() {\n\tif x {\n\t\ty();\n\t}\n}\n';
    const { out, text } = await edit(file, '    if x {\n        y();\n    }', '    if x {\n        z();\n    }');
    expect(out).toMatchObject({ success: true, strategy: 'indentation' });
    expect(text).toBe('fn main() {\n\tif x {\n\t\tz();\n\t}\n}\n');
  });

  it('curly quotes, dashes and non-breaking spaces', async () => {
    const file = 'say("it\'s done") -- ok\nnext\n';
    const { out, text } = await edit(
      file,
      'say(\u201Cit\u2019s done\u201D) \u2014 ok\nnext',
      'say("it\'s finished") -- ok\nnext',
    );
    expect(out).toMatchObject({ success: true, strategy: 'unicode_punctuation' });
    expect(text).toBe('say("it\'s finished") -- ok\nnext\n');
  });

  it('escaped newlines and tabs written literally', async () => {
    const { out, text } = await edit(
      'if (a) {\n\treturn 1;\n}\n',
      'if (a) {\\n\\treturn 1;\\n}',
      'if (a) {\\n\\treturn 2;\\n}',
    );
    expect(out).toMatchObject({ success: true, strategy: 'escaped_characters' });
    expect(text).toBe('if (a) {\n\treturn 2;\n}\n');
  });

  it('reader line-number prefixes copied into both strings', async () => {
    const { out, text } = await edit('a\nb\nc\n', '     2\tb\n     3\tc', '     2\tB\n     3\tc');
    expect(out).toMatchObject({ success: true, strategy: 'line_number_prefix' });
    expect(text).toBe('a\nB\nc\n');
  });

  it('two places that match loosely are refused with both candidates', async () => {
    const file = 'if (a) {\n    x();\n}\nif (a) {\n        x();\n}\n';
    const { out, text } = await edit(file, 'if (a) {\n  x();\n}', 'if (a) {\n  y();\n}');
    expect(out).toMatchObject({ success: false, error_code: 'ambiguous_match', tier: 'indentation' });
    expect((out.candidates as unknown[]).length).toBe(2);
    expect(text).toBe(file);
  });

  it('a line missing from the middle is never matched', async () => {
    const file = 'one();\ntwo();\nthree();\n';
    const { out, text } = await edit(file, 'one();\nthree();', 'ONE();\nTHREE();');
    expect(out).toMatchObject({ success: false, error_code: 'not_found_in_file' });
    expect(text).toBe(file);
  });

  it('exact: true turns loose matching off, and the option sets the default', async () => {
    const { out } = await edit('a();   \nb();\n', 'a();\nb();', 'x', { exact: true });
    expect(out).toMatchObject({ success: false, error_code: 'not_found_in_file' });
    ws.write('g.txt', 'a();   \nb();\n');
    const off = await handleEditor(
      { action: 'edit', file_path: 'g.txt', old_string: 'a();\nb();', new_string: 'x' },
      { workspaceRoot: ws.root, fuzzy: false },
    );
    expect(off).toMatchObject({ error_code: 'not_found_in_file' });
    const on = await handleEditor(
      { action: 'edit', file_path: 'g.txt', old_string: 'a();\nb();', new_string: 'x', exact: false },
      { workspaceRoot: ws.root, fuzzy: false },
    );
    expect(on).toMatchObject({ success: true, strategy: 'trailing_whitespace' });
  });

  it('replace_all never matches loosely', async () => {
    const { out } = await edit('a();   \nb();\n', 'a();\nb();', 'x', { replace_all: true });
    expect(out).toMatchObject({ success: false, error_code: 'not_found_in_file' });
  });
});
