import { readFileSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { type Fixture, makeFixture } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Every FileHandle shares one prototype; spying on it sees each fsync and fdatasync any write makes.
let proto: FileHandle;
let f: Fixture | undefined;
beforeEach(async () => {
  const probe = await open(import.meta.filename, 'r');
  proto = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
});
afterEach(() => {
  vi.restoreAllMocks();
  f?.cleanup();
  f = undefined;
});

async function syncsDuring(durable: boolean | undefined, work: (fx: Fixture) => Promise<void>): Promise<number> {
  f = makeFixture({ 'old.txt': 'old\n', 'gone.txt': 'bye\n' }, durable === undefined ? {} : { durable });
  const sync = vi.spyOn(proto, 'sync');
  const datasync = vi.spyOn(proto, 'datasync');
  await work(f);
  return sync.mock.calls.length + datasync.mock.calls.length;
}

const operations: Record<string, (fx: Fixture) => Promise<void>> = {
  'writeFile of a new file': async (fx) => {
    expect((await fx.ws.writeFile('new/file.txt', 'fresh\n')).success).toBe(true);
    expect(readFileSync(fx.path('new/file.txt'), 'utf8')).toBe('fresh\n');
  },
  'writeFile over an existing file': async (fx) => {
    expect((await fx.ws.writeFile('old.txt', 'replaced\n')).success).toBe(true);
    expect(readFileSync(fx.path('old.txt'), 'utf8')).toBe('replaced\n');
  },
  replaceFile: async (fx) => {
    const done = await fx.ws.replaceFile('old.txt', async (sink) => {
      await sink.write(Buffer.from('pieces\n'), 0);
      return true;
    });
    expect(done.success).toBe(true);
    expect(readFileSync(fx.path('old.txt'), 'utf8')).toBe('pieces\n');
  },
  applyChanges: async (fx) => {
    const done = await fx.ws.applyChanges([
      { kind: 'create', path: 'made.txt', data: Buffer.from('made\n') },
      { kind: 'replace', path: 'old.txt', data: Buffer.from('swapped\n'), expected: Buffer.from('old\n') },
    ]);
    expect(done.success).toBe(true);
    expect(readFileSync(fx.path('made.txt'), 'utf8')).toBe('made\n');
    expect(readFileSync(fx.path('old.txt'), 'utf8')).toBe('swapped\n');
  },
};

describe('the durable option', () => {
  it('is off by default and reads back from the workspace', async () => {
    f = makeFixture();
    expect(f.ws.durable).toBe(false);
    f.cleanup();
    f = makeFixture({}, { durable: true });
    expect(f.ws.durable).toBe(true);
  });

  for (const [name, work] of Object.entries(operations)) {
    it(`${name}: no fsync by default, the content still lands whole`, async () => {
      expect(await syncsDuring(undefined, work)).toBe(0);
    });
    it(`${name}: durable: false makes no fsync`, async () => {
      expect(await syncsDuring(false, work)).toBe(0);
    });
    it(`${name}: durable: true fsyncs the new content before it is put in place`, async () => {
      expect(await syncsDuring(true, work)).toBeGreaterThan(0);
    });
  }

  it('durable: true syncs before the rename, so the target never names unflushed data', async () => {
    f = makeFixture({ 'old.txt': 'old\n' }, { durable: true });
    const order: string[] = [];
    vi.spyOn(proto, 'sync').mockImplementation(async () => {
      order.push(`sync while target holds ${JSON.stringify(readFileSync(f!.path('old.txt'), 'utf8'))}`);
    });
    expect((await f.ws.writeFile('old.txt', 'new\n')).success).toBe(true);
    expect(order).toEqual(['sync while target holds "old\\n"']);
    expect(readFileSync(f.path('old.txt'), 'utf8')).toBe('new\n');
  });
});
