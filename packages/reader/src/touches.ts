import type { Touches } from '@bough/core';
import type { ReaderRequest } from './schema.js';

const isUrl = (value: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(value);

/**
 * What a reader request reads: the `path` of read, open, list_dir (the root when blank) and stat, every path of
 * read_many. A URL (`open` of an https page) is not a path and is left out.
 */
export function readerTouches(request: ReaderRequest): Touches {
  if (request.action === 'read_many') return { read: [...(request.paths ?? [])] };
  const path = request.path ?? '';
  if (path === '') return request.action === 'list_dir' ? { read: ['.'] } : {};
  return isUrl(path) ? {} : { read: [path] };
}
