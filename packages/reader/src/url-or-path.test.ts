import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleReader } from './index.js';
import type { ReaderInput } from './schema.js';

describe('a string the WHATWG URL parser reads as an absolute URL is a URL, never a file name', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({ 'notes.txt': 'hello\n' });
  });
  afterEach(() => ws.cleanup());
  const call = (action: string, path: string) =>
    handleReader({ action, path } as ReaderInput, { workspaceRoot: ws.root });

  it.each([
    'data:text/plain,hi',
    'javascript:alert(1)',
    'ftp://example.com/a.txt',
    'file:///etc/passwd',
    'mailto:someone@example.com',
    'http://example.com/a.html',
  ])('%s is refused as unsupported_scheme by read, open and list_dir', async (path) => {
    for (const action of ['read', 'open', 'list_dir']) {
      const out = await call(action, path);
      expect(out, `${action} ${path}`).toMatchObject({ success: false, error_code: 'unsupported_scheme' });
      expect((out as { error: string }).error).toMatch(/only https/);
    }
  });

  it('even when a workspace file has that very name', async () => {
    ws.write('data:text', 'a file whose name parses as a URL\n');
    expect(await call('read', 'data:text')).toMatchObject({ success: false, error_code: 'unsupported_scheme' });
    expect(await call('read', './data:text')).toMatchObject({ success: true });
  });

  it('an https URL is only opened; read and list_dir point to open', async () => {
    expect(await call('read', 'https://example.com/a.html')).toMatchObject({ error_code: 'invalid_request' });
    expect(await call('list_dir', 'https://example.com/')).toMatchObject({ error_code: 'invalid_request' });
    // No hosts are allowed by default: open refuses before any lookup.
    expect(await call('open', 'https://example.com/a.html')).toMatchObject({ error_code: 'url_not_allowed' });
    expect(await call('read', 'notes.txt')).toMatchObject({ success: true });
  });
});
