// A plain program gets the request checked by the compiler: a misspelt field is a type error (checked by `tsc` in the
// package's typecheck), and a well-formed request still compiles with its action-typed answer.
import { makeWorkspace } from '@bough/test-utils';
import { expect, it } from 'vitest';
import { handleReader } from './index.js';

it('refuses misspelt fields at compile time, and still at run time', async () => {
  const ws = makeWorkspace({ 'a.txt': 'x\n' });
  try {
    const options = { workspaceRoot: ws.root };
    // @ts-expect-error: `ofset` is not a field
    const misspelt = await handleReader({ action: 'read', path: 'a.txt', ofset: 2 }, options);
    expect(misspelt).toMatchObject({ success: false, error_code: 'invalid_request' });
    // @ts-expect-error: `pathz` is not a field
    await handleReader({ action: 'read_many', pathz: ['a.txt'] }, options);
    const read = await handleReader({ action: 'read', path: 'a.txt', offset: 0 }, options);
    expect(read).toMatchObject({ success: true });
  } finally {
    ws.cleanup();
  }
});
