import { defineLimits, type LimitValues } from '@bough/core';

/**
 * Every limit of the code_nav tool, defined once with core's limits mechanism: each can be overridden through the
 * `limits` option and a bad override throws a `ConfigurationError` naming the key. Defaults are sized for a real
 * repository.
 */
export const NAV_LIMITS = defineLimits('code_nav', {
  maxFileBytes: {
    value: 2 * 1024 * 1024,
    reason: 'files larger than this are not read: generated sources make outlines useless and parsing slow',
  },
  maxProjectFiles: {
    value: 5_000,
    reason: 'source files a project-wide query loads; bounds memory of the warm language service',
  },
  maxItems: {
    value: 500,
    reason: 'items returned by one call; a symbol used everywhere would otherwise flood the context',
  },
  maxSignatureChars: { value: 200, reason: 'characters of a signature or context line kept' },
  maxHoverChars: {
    value: 2_000,
    reason: 'characters of a language server hover text kept per item; documentation can run to pages',
  },
  maxConfigRounds: {
    value: 8,
    reason: 'rounds of loading the files a tsconfig.json extends chain names; a longer chain is cut where it stops',
  },
});

/** The resolved code_nav limits: one number per key of {@link NAV_LIMITS}. */
export type NavLimits = LimitValues<keyof typeof NAV_LIMITS.defaults>;

/** The default of every code_nav limit. */
export const DEFAULT_NAV_LIMITS: NavLimits = NAV_LIMITS.defaults;

/** Validates overrides and merges them over the defaults (a bad one throws); resolved limits pass through as they are. */
export function resolveNavLimits(overrides?: Partial<NavLimits>): NavLimits {
  return NAV_LIMITS.resolve(overrides);
}

/**
 * Settings sets (target, JSX mode, module format …) whose parsed standard library the process keeps for later projects,
 * least recently used dropped first. One set is about 40 MB; most processes need one. Not a per-tool override: the
 * parsed library is shared by every code_nav tool of the process.
 */
export const SHARED_LIBRARY_SETTINGS = 3;
