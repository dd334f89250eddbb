import { readFileSync } from 'node:fs';
import { makeWorkspace, NEAR_MISS_CASES, type TempWorkspace } from '@bough/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleEditor } from './index.js';

// Near misses of the kinds models make (tooling/test-utils/src/near-miss-corpus.ts). Each case is a true edit plus the
// slip the model made; a recovered case must give exactly the true result, a refused one must leave the file as it
// was. "Applied wrongly" must stay 0.
describe('near-miss corpus', () => {
  let ws: TempWorkspace;
  beforeAll(() => {
    ws = makeWorkspace();
  });
  afterAll(() => ws.cleanup());
  const tally = { recovered: 0, refused: 0, wrong: 0 };
  NEAR_MISS_CASES.forEach((c, n) => {
    it(`${c.kind}: ${c.expect}`, async () => {
      const name = `case-${n}.txt`;
      ws.write(name, c.file);
      const out = await handleEditor(
        { action: 'edit', file_path: name, old_string: c.slip(c.old), new_string: c.slip(c.new) },
        { workspaceRoot: ws.root },
      );
      const text = readFileSync(ws.path(name), 'utf8');
      const truth = c.file.replace(c.old, c.new);
      if (out.success) {
        if (text === truth) tally.recovered++;
        else tally.wrong++;
        expect(text).toBe(truth);
        expect(c.expect).toBe('recover');
      } else {
        tally.refused++;
        expect(text).toBe(c.file);
        expect(c.expect).toBe('refuse');
      }
    });
  });
  it('applied wrongly: 0', () => {
    expect(tally.wrong).toBe(0);
  });
});
