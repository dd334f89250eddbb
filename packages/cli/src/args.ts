// The error classes alone (no zod, no registry), so `bough --version` and `--help` load nothing else from core.
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

/** Thrown for a command line we cannot make sense of (exit code 2); a `BoughError` with code `usage_error`. */
export class UsageError extends BoughError {
  constructor(message: string, options: BoughErrorOptions = {}) {
    super(message, { ...options, code: options.code ?? 'usage_error' });
  }
}

/** Parses `argv` (without node and the script) into a command, positionals and flags; `--` ends flag parsing. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--') || (arg.startsWith('-') && arg.length === 2 && arg !== '-')) {
      const body = arg.startsWith('--') ? arg.slice(2) : (SHORT[arg.slice(1)] ?? arg.slice(1));
      const eq = body.indexOf('=');
      const name = eq === -1 ? body : body.slice(0, eq);
      if (VALUE_FLAGS.has(name)) {
        const value = eq === -1 ? argv[++i] : body.slice(eq + 1);
        if (value === undefined || value === '') throw new UsageError(`--${name} needs a value.`);
        flags.set(name, value);
      } else {
        if (eq !== -1) throw new UsageError(`--${name} does not take a value.`);
        flags.set(name, true);
      }
      continue;
    }
    positionals.push(arg);
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
