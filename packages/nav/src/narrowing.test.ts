import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, expect, expectTypeOf, it } from 'vitest';
import { handleCodeNav, type NavErrorCode, type NavItem } from './index.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.py': 'def f():\n    return 1\n' });
});
afterEach(() => ws.cleanup());

it('the answer is typed by the action: every lookup answers with items; bad actions do not compile', async () => {
  const outline = await handleCodeNav({ action: 'outline', path: 'a.py' }, { workspaceRoot: ws.root });
  expect(outline).toMatchObject({ success: true });
  if (outline.success) expectTypeOf(outline.items).toEqualTypeOf<NavItem[]>();
  else expectTypeOf(outline.error_code).toEqualTypeOf<NavErrorCode>();
  // @ts-expect-error: there is no such action
  await handleCodeNav({ action: 'move', path: 'a.py' }, { workspaceRoot: ws.root });
});
