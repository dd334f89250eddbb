import { readFileSync } from 'node:fs';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleEditor } from './index.js';

const SOURCE = [
  'export function total(items) {',
  '  let sum = 0;',
  '  for (const item of items) {',
  '    sum += item.price * item.qty;',
  '  }',
  '  return sum;',
  '}',
  '',
].join('\n');

type Miss = { error_code: string; reason: string; error: string; candidates: Array<Record<string, unknown>> };

describe('miss reports', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({ 'cart.js': SOURCE });
  });
  afterEach(() => ws.cleanup());
  const edit = async (old_string: string, new_string = 'X') =>
    (await handleEditor(
      // exact: the miss report is what a call without loose matching gets (fuzzy tiers are tested in fuzzy.test.ts)
      { action: 'edit', file_path: 'cart.js', old_string, new_string, exact: true },
      { workspaceRoot: ws.root },
    )) as unknown as Miss;

  it('spots reader line-number prefixes copied into old_string', async () => {
    const out = await edit('     2\t  let sum = 0;\n     3\t  for (const item of items) {');
    expect(out).toMatchObject({ error_code: 'not_found_in_file', reason: 'line_number_prefix' });
    expect(out.error).toMatch(/line-number prefixes/);
  });

  it('spots literal escape sequences', async () => {
    expect(await edit('  let sum = 0;\\n  for')).toMatchObject({ reason: 'escaped_characters' });
  });

  it('spots extra surrounding whitespace', async () => {
    expect(await edit('\n\n  return sum;  \n\n\n')).toMatchObject({ reason: 'surrounding_whitespace' });
  });

  it('reports an indentation-only difference with the exact lines', async () => {
    const out = await edit('for (const item of items) {\n  sum += item.price * item.qty;\n}');
    expect(out).toMatchObject({ reason: 'whitespace_only' });
    expect(out.candidates[0]).toMatchObject({
      start_line: 3,
      end_line: 5,
      similarity: 1,
      difference: 'whitespace_only',
    });
    expect(out.error).toMatch(/Lines 3-5/);
  });

  it('returns the closest windows with line numbers and a score for a stale quote', async () => {
    const out = await edit('  for (const item of items) {\n    sum += item.cost * item.qty;\n  }');
    expect(out).toMatchObject({ error_code: 'not_found_in_file', reason: 'not_found' });
    const best = out.candidates[0]!;
    expect(best).toMatchObject({ start_line: 3, end_line: 5, difference: 'content' });
    expect(best.similarity as number).toBeGreaterThan(0.8);
    expect(best.similarity as number).toBeLessThan(1);
    expect(best.text).toContain('item.price');
    expect(out.error).toMatch(/lines 3-5 \(similarity 0\.\d+\)/);
  });

  it('finds a fuzzy candidate even when no line matches exactly', async () => {
    const out = await edit('    sum += item.prices * item.qty;');
    expect(out.candidates[0]).toMatchObject({ start_line: 4, end_line: 4 });
  });

  it('says nothing resembles it when the text is unrelated', async () => {
    const out = await edit('SELECT * FROM users WHERE id = 1;');
    expect(out.candidates).toEqual([]);
    expect(out.error).toMatch(/Nothing in the file resembles it/);
  });

  it('stays bounded on a huge file and leaves it unchanged', async () => {
    const big = `${'const filler = 1;\n'.repeat(200_000)}function target() {}\n`;
    ws.write('big.js', big);
    const out = (await handleEditor(
      { action: 'edit', file_path: 'big.js', old_string: 'function targte() {}', new_string: 'x' },
      { workspaceRoot: ws.root, limits: { maxCandidateComparisons: 5_000 } },
    )) as unknown as Miss;
    expect(out.error_code).toBe('not_found_in_file');
    expect(readFileSync(ws.path('big.js'), 'utf8')).toBe(big);
  });
});
