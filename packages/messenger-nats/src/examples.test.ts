import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startNatsServer, type TestNatsServer } from '@bough/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The README's example, run as documented: a lead process that starts two worker processes.
const LEAD = join(import.meta.dirname, '..', 'examples', 'lead.mjs');
const BUILT = join(import.meta.dirname, '..', 'dist', 'index.js');

describe('examples/lead.mjs', () => {
  let server: TestNatsServer;
  beforeAll(async () => {
    if (!existsSync(BUILT)) throw new Error('The example runs dist: build @bough/messenger-nats first.');
    server = await startNatsServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('runs a lead and two workers in three processes', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [LEAD, server.url], { timeout: 45_000 });
    expect(stdout.trim().split('\n')).toEqual([
      'w1: done with "count the TODOs in src/"',
      'w2: done with "list the failing tests"',
      'team done',
    ]);
  }, 50_000);
});
