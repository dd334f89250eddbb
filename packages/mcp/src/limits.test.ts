import { ConfigurationError, ToolRegistry } from '@bough/core';
import { describe, expect, it } from 'vitest';
import { serveHttp } from './http.js';
import { registerMcpServer } from './register.js';
import { createMcpServer } from './server.js';
import { serveStdio } from './stdio.js';

const token = 'a'.repeat(32);

describe('limits', () => {
  it('throws a configuration error naming the key before anything starts', async () => {
    const registry = new ToolRegistry();
    await expect(
      serveHttp(registry, { name: 't', version: '1', port: 0, token, limits: { progressIntervalMs: 0 } }),
    ).rejects.toThrow(/progressIntervalMs/);
    expect(() => createMcpServer(registry, { name: 't', version: '1', limits: { toolListTtlMs: -1 } })).toThrow(
      /toolListTtlMs/,
    );
    await expect(
      registerMcpServer(
        registry,
        { server: 's', client: { command: 'never-run' } },
        { limits: { maxListPagez: 1 } as never },
      ),
    ).rejects.toThrow(/maxListPagez/);
    expect(() => createMcpServer(registry, { name: 't', version: '1', rootsTimeoutMs: 'soon' as never })).toThrow(
      ConfigurationError,
    );
    await expect(serveStdio(registry, { name: 't', version: '1', drainTimeoutMs: 'later' as never })).rejects.toThrow(
      /drainTimeoutMs/,
    );
  });
});
