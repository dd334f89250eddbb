import { ConfigurationError } from './bough-error.js';
import { effectiveTimeout, MAX_TIMEOUT_MS } from './timeout.js';

/**
 * How an override of one limit is validated. `timeout` follows the one timeout rule: a non-positive or non-finite
 * value means the default, larger values are capped at the timer ceiling.
 */
export type LimitRule = 'positive_integer' | 'non_negative_integer' | 'positive' | 'non_negative' | 'timeout';

/** One limit: its default, the one-line reason for that default, and how overrides are checked. */
export interface LimitSpec {
  readonly value: number;
  readonly reason: string;
  /** Default `positive_integer`. */
  readonly rule?: LimitRule;
  /** Largest accepted override (inclusive); larger ones throw, except for `timeout`, which caps. */
  readonly max?: number;
}

/** The resolved values of a limit table: one number per key. */
export type LimitValues<K extends string> = { readonly [P in K]: number };

/** What {@link defineLimits} returns: the defaults, the reasons, and the one way to resolve overrides. */
export interface LimitTable<K extends string> {
  /** The package name used in error messages (`reader limits.maxLineChars …`). */
  readonly name: string;
  readonly defaults: LimitValues<K>;
  readonly reasons: { readonly [P in K]: string };
  readonly specs: { readonly [P in K]: Required<Omit<LimitSpec, 'max'>> & { readonly max?: number } };
  /**
   * Validates overrides and merges them over the defaults, once per tool build. A key this table does not have, or a
   * value its rule refuses, throws {@link ConfigurationError} naming the key: a bad override is never dropped
   * silently. Passing an object this table already resolved returns it unchanged, so a handler may call `resolve`
   * on limits its factory resolved without paying twice.
   */
  resolve(overrides?: Partial<Record<K, number>> | LimitValues<K>): LimitValues<K>;
}

const RULE_TEXT: Record<LimitRule, string> = {
  positive_integer: 'a positive integer',
  non_negative_integer: 'a non-negative integer',
  positive: 'a positive finite number',
  non_negative: 'a non-negative finite number',
  timeout: 'a number of milliseconds',
};

function accepts(rule: LimitRule, value: number): boolean {
  switch (rule) {
    case 'positive_integer':
      return Number.isSafeInteger(value) && value > 0;
    case 'non_negative_integer':
      return Number.isSafeInteger(value) && value >= 0;
    case 'positive':
      return Number.isFinite(value) && value > 0;
    case 'non_negative':
      return Number.isFinite(value) && value >= 0;
    case 'timeout':
      // Any number: non-positive and non-finite ones mean the default (the one timeout rule).
      return true;
  }
}

/**
 * Defines a package's limits in one place. Every default is checked against its own rule here, so a table that
 * contradicts itself fails at import time, not in a user's call.
 */
export function defineLimits<const S extends Record<string, LimitSpec>>(
  name: string,
  specs: S,
): LimitTable<keyof S & string> {
  type K = keyof S & string;
  const defaults: Record<string, number> = {};
  const reasons: Record<string, string> = {};
  const normalized: Record<string, LimitSpec & { rule: LimitRule }> = {};
  for (const [key, spec] of Object.entries(specs)) {
    const rule = spec.rule ?? 'positive_integer';
    if (!spec.reason || spec.reason.trim() === '') throw new ConfigurationError(`${name} limit ${key} has no reason`);
    const usable = rule === 'timeout' ? Number.isFinite(spec.value) && spec.value > 0 : accepts(rule, spec.value);
    if (!usable) {
      throw new ConfigurationError(`${name} limit ${key} default ${spec.value} is not ${RULE_TEXT[rule]}`);
    }
    defaults[key] = spec.value;
    reasons[key] = spec.reason;
    normalized[key] = { ...spec, rule };
  }
  Object.freeze(defaults);
  const resolved = new WeakSet<object>([defaults]);

  function resolve(overrides?: Partial<Record<K, number>> | LimitValues<K>): LimitValues<K> {
    if (overrides === undefined || overrides === null) return defaults as LimitValues<K>;
    if (resolved.has(overrides)) return overrides as LimitValues<K>;
    if (typeof overrides !== 'object') {
      throw new ConfigurationError(`${name} limits must be an object of numbers; got ${typeof overrides}`);
    }
    const merged: Record<string, number> = { ...defaults };
    for (const [key, value] of Object.entries(overrides)) {
      if (value === undefined) continue;
      const spec = normalized[key];
      if (spec === undefined || !Object.hasOwn(normalized, key)) {
        throw new ConfigurationError(
          `${name} has no limit named ${key}; known limits: ${Object.keys(normalized).join(', ')}`,
          { code: 'unknown_limit' },
        );
      }
      if (typeof value !== 'number' || !accepts(spec.rule, value)) {
        throw new ConfigurationError(`${name} limits.${key} must be ${RULE_TEXT[spec.rule]}; got ${String(value)}`, {
          code: 'invalid_limit',
        });
      }
      if (spec.rule === 'timeout') {
        merged[key] = effectiveTimeout(value, spec.value, spec.max ?? MAX_TIMEOUT_MS);
        continue;
      }
      if (spec.max !== undefined && value > spec.max) {
        throw new ConfigurationError(`${name} limits.${key} must be at most ${spec.max}; got ${value}`, {
          code: 'invalid_limit',
        });
      }
      merged[key] = value;
    }
    Object.freeze(merged);
    resolved.add(merged);
    return merged as LimitValues<K>;
  }

  return Object.freeze({
    name,
    defaults: defaults as LimitValues<K>,
    reasons: Object.freeze(reasons) as { readonly [P in K]: string },
    specs: Object.freeze(normalized) as unknown as LimitTable<K>['specs'],
    resolve,
  });
}

/**
 * Fills `{key}` placeholders in model-facing text with resolved limit values, so a description never states a
 * number the tool does not enforce. An unknown placeholder throws {@link ConfigurationError} (a typo in a template is
 * a programmer error). Numbers are written with thousands separators (`2,000`).
 */
export function limitText<K extends string>(template: string, limits: LimitValues<K>): string {
  return template.replace(/\{([A-Za-z][A-Za-z0-9]*)\}/g, (_match, key: string) => {
    const value = (limits as Record<string, number>)[key];
    if (typeof value !== 'number') throw new ConfigurationError(`limit text names an unknown limit {${key}}`);
    return formatCount(value);
  });
}

/** A count for model-facing text, with thousands separators (`200,000`). */
export function formatCount(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString('en-US') : String(value);
}

/** A byte size for model-facing text: whole KiB/MiB/GiB when exact, else bytes (`64 MiB`, `50,000 bytes`). */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${formatCount(bytes / size)} ${unit}`;
  }
  return `${formatCount(bytes)} bytes`;
}
