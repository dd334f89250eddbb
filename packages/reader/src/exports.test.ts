import { expect, it } from 'vitest';

it('exports exactly these names, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_READER_LIMITS",
      "DocumentCache",
      "READER_ERROR_CODES",
      "READER_LIMITS",
      "ReaderFailure",
      "ReaderImageSuccess",
      "ReaderListSuccess",
      "ReaderManySuccess",
      "ReaderRequest",
      "ReaderResponse",
      "ReaderStatSuccess",
      "ReaderTextSuccess",
      "createReaderTool",
      "handleReader",
      "readerProvider",
    ]
  `);
});
