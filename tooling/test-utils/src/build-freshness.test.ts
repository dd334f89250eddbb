import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { staleBuilds } from './internal/build-freshness.js';
import { makeWorkspace } from './workspace.js';

it('names a package whose source changed after its build, and only that one', () => {
  const ws = makeWorkspace();
  try {
    const file = (path: string, seconds: number) => {
      mkdirSync(join(ws.root, path, '..'), { recursive: true });
      writeFileSync(join(ws.root, path), '');
      utimesSync(join(ws.root, path), seconds, seconds);
    };
    file('fresh/src/a.ts', 1_000);
    file('fresh/dist/a.js', 2_000);
    file('stale/src/deep/b.ts', 3_000);
    file('stale/dist/b.js', 2_000);
    file('tested/src/c.test.ts', 3_000);
    file('tested/src/c.ts', 1_000);
    file('tested/dist/c.js', 2_000);
    file('unbuilt/src/d.ts', 3_000);
    expect(staleBuilds(ws.root)).toEqual(['stale']);
  } finally {
    ws.cleanup();
  }
});
