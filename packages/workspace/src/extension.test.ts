import { expect, it } from 'vitest';
import { extensionOf } from './extension.js';

it('gives the lower-case extension of the last path segment, or nothing', () => {
  expect(extensionOf('src/App.TSX')).toBe('tsx');
  expect(extensionOf('a/b.c/file')).toBe('');
  expect(extensionOf('lib/archive.tar.gz')).toBe('gz');
  expect(extensionOf('.gitignore')).toBe('');
  expect(extensionOf('dir/.env.local')).toBe('local');
  expect(extensionOf('trailing.')).toBe('');
});
