import { defineLimits, type LimitValues } from '@bough/core';

/**
 * Every limit of `@bough/lsp`, defined once with core's limits mechanism: each can be overridden through the
 * `limits` option of {@link LspClient}, and a bad override throws a `ConfigurationError` naming the key.
 */
export const LSP_LIMITS = defineLimits('lsp', {
  startTimeoutMs: {
    value: 30_000,
    rule: 'timeout',
    reason:
      'a server that has not answered `initialize` by then is stuck (or loading far more than a tool should wait for)',
  },
  requestTimeoutMs: {
    value: 15_000,
    rule: 'timeout',
    reason:
      'one request (symbols, definition, references, hover); a slower answer is cancelled and reported as timeout',
  },
  diagnosticsWaitMs: {
    value: 15_000,
    rule: 'timeout',
    reason: 'how long to wait for diagnostics of the exact version just sent before saying they did not arrive',
  },
  republishWaitMs: {
    value: 2_000,
    rule: 'timeout',
    reason:
      'a file whose own text did not change, after other files changed: how long to wait for the server to publish again before answering with its latest',
  },
  unversionedSettleMs: {
    value: 500,
    rule: 'non_negative',
    reason:
      'a server that publishes without versions (typescript-language-server) is answered once it has been quiet this long, so its later semantic pass is not missed',
  },
  idleShutdownMs: {
    value: 300_000,
    rule: 'timeout',
    reason: 'a server unused this long is shut down to give its memory back; the next request starts it again',
  },
  maxRestarts: {
    value: 3,
    rule: 'non_negative_integer',
    reason: 'crashes of one server restarted within `restartWindowMs`; past that it is reported, not restarted',
  },
  restartWindowMs: {
    value: 300_000,
    reason: 'the window the restart budget counts crashes in',
  },
  shutdownGraceMs: {
    value: 2_000,
    rule: 'non_negative',
    reason: 'time a server gets to answer `shutdown` and exit before its process group is killed',
  },
  maxFileBytes: {
    value: 2 * 1024 * 1024,
    reason: 'larger files are not sent to a server: generated sources cost much memory and say little',
  },
  maxOpenDocuments: {
    value: 200,
    reason: 'documents kept open per server; the least recently used is closed past this, bounding server memory',
  },
});

/** The resolved lsp limits: one number per key of {@link LSP_LIMITS}. */
export type LspLimits = LimitValues<keyof typeof LSP_LIMITS.defaults>;

/** The default of every lsp limit. */
export const DEFAULT_LSP_LIMITS: LspLimits = LSP_LIMITS.defaults;

/** Validates overrides and merges them over the defaults (a bad one throws); resolved limits pass through as they are. */
export function resolveLspLimits(overrides?: Partial<LspLimits>): LspLimits {
  return LSP_LIMITS.resolve(overrides);
}
