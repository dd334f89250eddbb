// A plain program gets the request checked by the compiler: a misspelt or missing field is a type error (checked by
// `tsc` in the package's typecheck), and a well-formed request still compiles with its action-typed answer.
import { makeWorkspace } from '@bough/test-utils';
import { expect, expectTypeOf, it } from 'vitest';
import { handleEditor } from './index.js';

it('refuses misspelt and missing fields at compile time, and still at run time', async () => {
  const ws = makeWorkspace({ 'a.txt': 'x\n' });
  try {
    const options = { workspaceRoot: ws.root };
    const file_path = 'a.txt';
    // @ts-expect-error: `old_strin` is not a field (and `old_string` is then missing)
    const misspelt = await handleEditor({ action: 'edit', file_path, old_strin: 'x', new_string: 'y' }, options);
    expect(misspelt).toMatchObject({ success: false, error_code: 'invalid_request' });
    // @ts-expect-error: an edit needs `new_string`
    const missing = await handleEditor({ action: 'edit', file_path, old_string: 'x' }, options);
    expect(missing).toMatchObject({ success: false, error_code: 'invalid_request' });
    // @ts-expect-error: a write needs `content`
    await handleEditor({ action: 'write', file_path }, options);
    const edited = await handleEditor({ action: 'edit', file_path, old_string: 'x', new_string: 'y' }, options);
    expect(edited).toMatchObject({ success: true });
    if (edited.success) expectTypeOf(edited.action).toEqualTypeOf<'edit'>();
  } finally {
    ws.cleanup();
  }
});
