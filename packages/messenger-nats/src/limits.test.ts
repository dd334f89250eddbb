import { ConfigurationError } from '@bough/core';
import { describe, expect, it } from 'vitest';
import { openNatsExchange } from './open.js';

describe('limits', () => {
  it('throws a configuration error naming the key before connecting', async () => {
    // No server listens here; a validated override must fail before any connection is tried.
    const servers = 'nats://127.0.0.1:1';
    await expect(openNatsExchange({ name: 't', servers, limits: { leaseMs: -1 } })).rejects.toThrow(/leaseMs/);
    await expect(openNatsExchange({ name: 't', servers, limits: { leaseMS: 5 } as never })).rejects.toThrow(/leaseMS/);
    await expect(
      openNatsExchange({ name: 't', servers, limits: { leaseMs: 9_000, ackWaitMs: 3_000 } }),
    ).rejects.toBeInstanceOf(ConfigurationError);
  });
});
