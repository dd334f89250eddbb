import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, expect, expectTypeOf, it } from 'vitest';
import { handleSearch, type SearchErrorCode } from './index.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'needle\n' });
});
afterEach(() => ws.cleanup());

it('the answer is typed by the action: grep and find successes carry content and skipped; bad actions do not compile', async () => {
  const grep = await handleSearch({ action: 'grep', pattern: 'needle' }, { workspaceRoot: ws.root });
  const find = await handleSearch({ action: 'find', pattern: '*.txt' }, { workspaceRoot: ws.root });
  expect(grep).toMatchObject({ success: true, count: 1 });
  expect(find).toMatchObject({ success: true, count: 1 });
  if (grep.success) expectTypeOf(grep.skipped.binary).toEqualTypeOf<number>();
  else expectTypeOf(grep.error_code).toEqualTypeOf<SearchErrorCode>();
  if (find.success) expectTypeOf(find.content).toEqualTypeOf<string>();
  // @ts-expect-error: there is no such action
  await handleSearch({ action: 'replace', pattern: 'x' }, { workspaceRoot: ws.root });
});
