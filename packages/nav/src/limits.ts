/** Every limit of the code_nav tool; each can be overridden through the `limits` option. */
export interface NavLimits {
  /** Files larger than this are not read: generated sources make outlines useless and parsing slow. */
  readonly maxFileBytes: number;
  /** Source files a project-wide query loads; bounds memory of the warm language service. */
  readonly maxProjectFiles: number;
  /** Items returned by one call; a symbol used everywhere would otherwise flood the context. */
  readonly maxItems: number;
  /** Characters of a signature or context line kept. */
  readonly maxSignatureChars: number;
  /** Rounds of loading the files a tsconfig.json `extends` chain names; a longer chain is cut where it stops. */
  readonly maxConfigRounds: number;
}

/** Defaults sized for a real repository. */
export const DEFAULT_NAV_LIMITS: NavLimits = Object.freeze({
  maxFileBytes: 2 * 1024 * 1024,
  maxProjectFiles: 5_000,
  maxItems: 500,
  maxSignatureChars: 200,
  maxConfigRounds: 8,
});

/** Merges caller overrides over the defaults; only positive integers are taken. */
export function resolveNavLimits(overrides?: Partial<NavLimits>): NavLimits {
  const merged: Record<string, number> = { ...DEFAULT_NAV_LIMITS };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (key in merged && typeof value === 'number' && Number.isInteger(value) && value > 0) merged[key] = value;
  }
  return Object.freeze(merged) as unknown as NavLimits;
}
