import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_BIN as bin, makeWorkspace, requireCliBuild, type TempWorkspace } from '@bough/test-utils';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * Loaded into the server with --import: every fsync of a file handle appends a line to $SYNC_LOG, so a test can see
 * whether writes were flushed without timing anything.
 */
const SPY = `
import { appendFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
const probe = await open(process.execPath, 'r');
const proto = Object.getPrototypeOf(probe);
await probe.close();
const sync = proto.sync;
proto.sync = function (...args) {
  appendFileSync(process.env.SYNC_LOG, 'sync\\n');
  return sync.apply(this, args);
};
`;

async function syncsOfOneWrite(ws: TempWorkspace, flags: readonly string[]): Promise<number> {
  const spy = join(ws.base, 'sync-spy.mjs');
  const log = join(ws.base, `syncs-${flags.join('') || 'none'}.log`);
  writeFileSync(spy, SPY);
  writeFileSync(log, '');
  const client = new Client({ name: 'bough-test', version: '0.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', spy, bin, 'mcp', ...flags, ws.root],
      env: { ...(process.env as Record<string, string>), SYNC_LOG: log },
      stderr: 'ignore',
    }),
  );
  try {
    const written = await client.callTool({
      name: 'editor',
      arguments: { action: 'write', file_path: `out${flags.length}.txt`, content: 'kept\n' },
    });
    expect(written.isError).toBeFalsy();
  } finally {
    await client.close();
  }
  return readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
}

describe('bough mcp --durable', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    requireCliBuild();
    ws = makeWorkspace({});
  });
  afterEach(() => ws.cleanup());

  it('fsyncs the editor writes only when asked, for the toolkit and the standalone tools', async () => {
    expect(await syncsOfOneWrite(ws, [])).toBe(0);
    expect(await syncsOfOneWrite(ws, ['--durable'])).toBeGreaterThan(0);
    expect(await syncsOfOneWrite(ws, ['--standalone', '--durable'])).toBeGreaterThan(0);
    expect(readFileSync(ws.path('out1.txt'), 'utf8')).toBe('kept\n');
  });
});
