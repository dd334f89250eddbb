// The error classes alone (no zod, no registry), so `bough --version` and `--help` load nothing else from core.
import { type ParseArgsConfig, parseArgs as parseNodeArgs } from 'node:util';
import { BoughError, type BoughErrorOptions } from '@bough/core/errors';

/** Parsed command line: the command, its positional arguments and its flags. */
export interface ParsedArgs {
  readonly command: string | undefined;
  readonly positionals: readonly string[];
  readonly flags: ReadonlyMap<string, string | true>;
}

/** Flags that take a value; every other flag is a boolean switch. */
const VALUE_FLAGS = new Set([
  'workspace',
  'tools',
  'base-url',
  'model',
  'api-key-env',
  'max-turns',
  'timeout',
  'permissions',
  'http',
  'retries',
  'session',
  'sandbox',
  'profile',
]);
const SHORT: Record<string, string> = { w: 'workspace', h: 'help', j: 'json' };
const OPTIONS: NonNullable<ParseArgsConfig['options']> = Object.fromEntries([
  ...[...VALUE_FLAGS].map((name) => [name, { type: 'string' as const }]),
  ...Object.entries(SHORT).map(([short, name]) => [
    name,
    { type: VALUE_FLAGS.has(name) ? ('string' as const) : ('boolean' as const), short },
  ]),
]);

/** Thrown for a command line we cannot make sense of (exit code 2); a `BoughError` with code `usage_error`. */
export class UsageError extends BoughError {
  constructor(message: string, options: BoughErrorOptions = {}) {
    super(message, { ...options, code: options.code ?? 'usage_error' });
  }
}

/**
 * Parses `argv` (without node and the script) into a command, positionals and flags; `--` ends flag parsing.
 *
 * Node's own `util.parseArgs` does the tokenising (long and short forms, `--name=value`, `--`). It runs non-strict so
 * an unknown flag reaches {@link checkFlags}, which names the flags the command does accept; the checks below add
 * what non-strict parsing lets through: a value flag without a value, and a value given to a switch.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const { tokens } = parseNodeArgs({
    args: [...argv],
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    else if (token.kind === 'option') {
      if (VALUE_FLAGS.has(token.name)) {
        if (token.value === undefined || token.value === '') throw new UsageError(`--${token.name} needs a value.`);
        flags.set(token.name, token.value);
      } else {
        if (token.value !== undefined) throw new UsageError(`--${token.name} does not take a value.`);
        flags.set(token.name, true);
      }
    }
  }
  const [command, ...rest] = positionals;
  return { command, positionals: rest, flags };
}

/** The flags each command accepts; `help` and `version` are accepted everywhere. */
export const COMMAND_FLAGS: Readonly<Record<string, readonly string[]>> = {
  tools: ['workspace', 'toolkit', 'tools', 'json'],
  call: ['workspace', 'toolkit', 'timeout', 'json'],
  mcp: ['workspace', 'tools', 'standalone', 'http', 'sandbox', 'network', 'durable', 'profile', 'output-schemas'],
  demo: ['keep', 'json'],
  checkpoints: ['workspace', 'json'],
  undo: ['workspace', 'force', 'json'],
  agent: [
    'base-url',
    'model',
    'api-key-env',
    'max-turns',
    'permissions',
    'workspace',
    'timeout',
    'retries',
    'no-stream',
    'json',
    'yes',
    'session',
    'resume',
    'print-config',
    'sandbox',
    'network',
    'no-checkpoints',
    'profile',
  ],
};

/**
 * Refuses a flag the command does not know. A mistyped `--workspace` must never be ignored, since the command would
 * then run against the current directory instead.
 */
export function checkFlags(args: ParsedArgs): void {
  const known = COMMAND_FLAGS[args.command ?? ''];
  if (!known) return;
  const unknown = [...args.flags.keys()].filter(
    (name) => name !== 'help' && name !== 'version' && !known.includes(name),
  );
  if (unknown.length > 0) {
    const list = known.length > 0 ? known.map((name) => `--${name}`).join(', ') : 'none';
    throw new UsageError(
      `${args.command} does not accept ${unknown.map((name) => `--${name}`).join(', ')} (it accepts ${list}).`,
    );
  }
}

/** Reads a string flag. */
export function flag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags.get(name);
  return typeof value === 'string' ? value : undefined;
}

/** Reads a boolean switch. */
export function has(args: ParsedArgs, name: string): boolean {
  return args.flags.has(name);
}

/** Reads a positive integer flag. */
export function intFlag(args: ParsedArgs, name: string): number | undefined {
  const value = flag(args, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${name} must be a positive whole number.`);
  return n;
}

/** The OS sandbox for commands chosen by `--sandbox off|auto|required` and `--network` (toolkit options). */
export function sandboxFlags(args: ParsedArgs): { commandSandbox?: 'off' | 'auto' | 'required'; network?: boolean } {
  const mode = flag(args, 'sandbox');
  if (mode !== undefined && mode !== 'off' && mode !== 'auto' && mode !== 'required')
    throw new UsageError(`--sandbox takes off, auto or required, not ${JSON.stringify(mode)}.`);
  return { ...(mode ? { commandSandbox: mode } : {}), ...(has(args, 'network') ? { network: true } : {}) };
}
