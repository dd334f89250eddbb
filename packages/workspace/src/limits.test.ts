import { BoughError, ConfigurationError } from '@bough/core';
import { type Fixture, makeFixture } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readWorkspaceText } from './read-text.js';
import { WorkspaceError } from './walk.js';
import { Workspace } from './workspace.js';

let f: Fixture;
beforeEach(() => {
  f = makeFixture();
});
afterEach(() => {
  f.cleanup();
});

describe('limit overrides', () => {
  it('applies a valid override', async () => {
    const ws = await Workspace.open(f.root, { limits: { maxWalkDepth: 3 } });
    expect(ws.limits.maxWalkDepth).toBe(3);
    expect(ws.limits.maxWriteBytes).toBe(64 * 1024 * 1024);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'throws for maxWriteBytes = %s, naming the key',
    async (value) => {
      await expect(Workspace.open(f.root, { limits: { maxWriteBytes: value } })).rejects.toThrow(
        /workspace limits\.maxWriteBytes must be a positive integer/,
      );
      await expect(Workspace.open(f.root, { limits: { maxWriteBytes: value } })).rejects.toBeInstanceOf(
        ConfigurationError,
      );
    },
  );

  it('throws for an unknown key instead of dropping it', async () => {
    const limits = { maxWriteByte: 10 } as unknown as { maxWriteBytes: number };
    await expect(Workspace.open(f.root, { limits })).rejects.toThrow(/no limit named maxWriteByte/);
  });
});

describe('one error base', () => {
  it('WorkspaceError is a BoughError carrying the refusal code', async () => {
    const ws = await Workspace.open(f.root);
    const walk = ws.walk('missing-dir');
    const error = await walk.next().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WorkspaceError);
    expect(BoughError.isInstance(error)).toBe(true);
    expect((error as WorkspaceError).code).toBe('not_found');
  });
});

describe('success on every result', () => {
  it('success values carry success and no separate ok field', async () => {
    const ws = await Workspace.open(f.root);
    expect(await ws.writeFile('a-new.txt', 'x')).toMatchObject({ success: true });
    expect(await ws.resolve('a-new.txt', 'read')).toMatchObject({ success: true });
    expect(await ws.resolve('a-new.txt', 'read')).not.toHaveProperty('ok');
    expect(await readWorkspaceText(ws, 'a-new.txt')).not.toHaveProperty('ok');
    expect(await ws.resolve('nope.txt', 'read')).toMatchObject({ success: false, error_code: 'not_found' });
  });
});
