/**
 * Names taken from the parent environment by default: enough for programs to find themselves, their home, their
 * locale and a temp dir, and nothing that usually carries credentials. An entry ending in `*` is a prefix.
 */
export const DEFAULT_ENV_ALLOWLIST: readonly string[] = Object.freeze([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'LC_*',
  'TERM',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
]);

/**
 * Set on every child so nothing waits for a human: pagers print straight through, git never asks for a password or
 * opens an editor, package tools take their defaults.
 */
export const NON_INTERACTIVE_ENV: Readonly<Record<string, string>> = Object.freeze({
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  MANPAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
  GIT_EDITOR: 'true',
  DEBIAN_FRONTEND: 'noninteractive',
  PIP_NO_INPUT: '1',
});

/** Name fragments that mark a variable as a likely secret; matched case-insensitively anywhere in the name. */
export const SECRET_NAME_FRAGMENTS: readonly string[] = Object.freeze([
  'TOKEN',
  'SECRET',
  'KEY',
  'PASSWORD',
  'PASSWD',
  'PASSPHRASE',
  'CREDENTIAL',
  'AUTH',
  'COOKIE',
  'PRIVATE',
  'SESSION',
]);

// Values that are credentials whatever their variable is called (private key blocks, well-known token formats).
const SECRET_VALUE_PATTERNS: readonly RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/,
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+/,
];

/** Inputs of {@link buildEnv}. */
export interface BuildEnvOptions {
  /** Extra variables set exactly as given: the caller's explicit choice, so they are not secret-filtered. */
  env?: Record<string, string>;
  /** Names (or `PREFIX*` patterns, or `*` for all) copied from `baseEnv`; secret-looking ones are still dropped. */
  inheritEnv?: readonly string[];
  /** Where inherited values come from; defaults to `process.env`, the only place this package reads it. */
  baseEnv?: Record<string, string | undefined>;
}

/** True when a variable name looks like it holds a credential, so it must not reach a model-driven child. */
export function isSecretEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_NAME_FRAGMENTS.some((fragment) => upper.includes(fragment));
}

/** True when a value looks like a credential even though its name does not say so. */
export function isSecretEnvValue(value: string): boolean {
  return SECRET_VALUE_PATTERNS.some((pattern) => pattern.test(value));
}

/** An allow-list split once per call into exact names and `PREFIX*` prefixes. */
interface AllowRule {
  readonly exact: ReadonlySet<string>;
  readonly prefixes: readonly string[];
}

function allowRule(allowList: readonly string[]): AllowRule {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const entry of allowList) {
    if (entry.endsWith('*')) prefixes.push(entry.slice(0, -1));
    else exact.add(entry);
  }
  return { exact, prefixes };
}

function allowed(name: string, rule: AllowRule): boolean {
  return rule.exact.has(name) || rule.prefixes.some((prefix) => name.startsWith(prefix));
}

/**
 * Builds a child environment from an allow-list instead of the whole parent environment, so API keys in the host
 * process never leak into commands a model chose.
 */
export function buildEnv(options: BuildEnvOptions = {}): Record<string, string> {
  const base = options.baseEnv ?? process.env;
  const rule = allowRule(options.inheritEnv ?? DEFAULT_ENV_ALLOWLIST);
  const result: Record<string, string> = Object.create(null);
  // Names first, values only for names that pass: reading `process.env` goes through a native lookup per value.
  for (const name of Object.keys(base)) {
    if (name === '' || name.includes('=') || !allowed(name, rule) || isSecretEnvName(name)) continue;
    const value = base[name];
    if (typeof value !== 'string' || isSecretEnvValue(value)) continue;
    result[name] = value;
  }
  if (result.TERM === undefined) result.TERM = 'dumb';
  Object.assign(result, NON_INTERACTIVE_ENV);
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (typeof value !== 'string' || value.includes('\0')) continue;
    if (name !== '' && !name.includes('=') && !name.includes('\0')) result[name] = value;
  }
  return { ...result };
}
