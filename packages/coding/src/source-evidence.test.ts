import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineTool } from '@bough/core';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call, toolkitBranch } from '../test/helpers.js';
import { NO_EVIDENCE, type ReadEvidenceOf, type WriteEvidenceOf } from './source-evidence.js';
import { STANDARD_SOURCES, type ToolSource } from './tool-sources.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'notes.txt': 'one\ntwo\n' });
});
afterEach(() => ws.cleanup());

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** A reader with a result shape of its own: the guard learns of its reads only through its extractor. */
const CatRequest = z.object({ file: z.string() }).strict();
type CatResult = { success: true; where: string; text: string; hash: string } | { success: false; error: string };
const catEvidence: ReadEvidenceOf<z.infer<typeof CatRequest>, CatResult> = {
  kind: 'read',
  reads: (result) => (result.success ? [{ path: result.where, sha256: result.hash }] : []),
};
function catSource(evidence: ReadEvidenceOf<z.infer<typeof CatRequest>, CatResult> | typeof NO_EVIDENCE) {
  const source: ToolSource<object, z.infer<typeof CatRequest>, CatResult> = {
    name: 'reader',
    scope: 'workspace',
    evidence,
    make: (root) =>
      defineTool({
        name: 'reader',
        description: 'Test reader: the whole file and its digest.',
        request: CatRequest,
        handler: async ({ file }): Promise<CatResult> => {
          const where = join(root, file);
          const text = readFileSync(where, 'utf8');
          return { success: true, where, text, hash: digest(text) };
        },
      }),
  };
  return source;
}

/** A writer with its own shape: its extractor names the file to guard and what the write left. */
const PutRequest = z.object({ file: z.string(), text: z.string() }).strict();
type PutResult = { success: true; written: string; hash: string };
const putEvidence: WriteEvidenceOf<z.infer<typeof PutRequest>, PutResult> = {
  kind: 'write',
  targets: (request) => [{ path: request.file, change: { action: 'write' } }],
  checkedPaths: () => [],
  effects: (_request, result) => [{ op: 'wrote', path: result.written, sha256: result.hash, lines: 'all' }],
};
const putSource: ToolSource<object, z.infer<typeof PutRequest>, PutResult> = {
  name: 'editor',
  scope: 'workspace',
  evidence: putEvidence,
  make: (root) =>
    defineTool({
      name: 'editor',
      description: 'Test writer: replaces a whole file.',
      request: PutRequest,
      handler: async ({ file, text }): Promise<PutResult> => {
        const written = join(root, file);
        writeFileSync(written, text);
        return { success: true, written, hash: digest(text) };
      },
    }),
};

const standard = (name: string) => STANDARD_SOURCES.find((source) => source.name === name)!;
const edit = { action: 'edit', file_path: 'notes.txt', old_string: 'two', new_string: 'TWO' };

describe('a custom source brings its own evidence extractor', () => {
  it("a custom reader's reads count as evidence for the standard editor's guard", async () => {
    const branch = toolkitBranch(
      ws.root,
      { tools: ['reader', 'editor'] },
      { sources: [catSource(catEvidence), standard('editor')] },
    );
    expect(await call(branch, 'editor', edit)).toMatchObject({ success: false, error_code: 'not_read' });
    expect(await call(branch, 'reader', { file: 'notes.txt' })).toMatchObject({ success: true });
    expect(await call(branch, 'editor', edit)).toMatchObject({ success: true });
    expect(readFileSync(join(ws.root, 'notes.txt'), 'utf8')).toBe('one\nTWO\n');
  });

  it('the same reader without an extractor gives the guard nothing', async () => {
    const branch = toolkitBranch(
      ws.root,
      { tools: ['reader', 'editor'] },
      { sources: [catSource(NO_EVIDENCE), standard('editor')] },
    );
    expect(await call(branch, 'reader', { file: 'notes.txt' })).toMatchObject({ success: true });
    expect(await call(branch, 'editor', edit)).toMatchObject({ success: false, error_code: 'not_read' });
  });

  it('a custom writer is guarded by its targets, and what it wrote becomes evidence', async () => {
    const branch = toolkitBranch(
      ws.root,
      { tools: ['reader', 'editor'] },
      { sources: [standard('reader'), putSource] },
    );
    // An existing file it never saw: refused before the handler runs.
    expect(await call(branch, 'editor', { file: 'notes.txt', text: 'x\n' })).toMatchObject({ error_code: 'not_read' });
    expect(readFileSync(join(ws.root, 'notes.txt'), 'utf8')).toBe('one\ntwo\n');
    // A new file, then a second write of it: the first write's effect is what lets the second through.
    expect(await call(branch, 'editor', { file: 'new.txt', text: 'a\n' })).toMatchObject({ success: true });
    expect(await call(branch, 'editor', { file: 'new.txt', text: 'b\n' })).toMatchObject({ success: true });
    expect(readFileSync(join(ws.root, 'new.txt'), 'utf8')).toBe('b\n');
  });
});
