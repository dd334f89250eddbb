import { splitCommand } from '@branchkit/process';

/** The strings permission patterns are matched against for one call. */
export interface PermissionSubject {
  /** The canonical subject (whitespace collapsed). */
  readonly literal: string;
  /** Every form deny rules consider: the literal one and, for bash, the command with its program's directory removed. */
  readonly forms: readonly string[];
}

type Args = Record<string, unknown>;

/**
 * The subject of a call, per tool: bash → command, editor → file_path, reader → path, search → `pattern path`,
 * subagent → `permissions instruction`, anything else → its action followed by its other values.
 */
export function permissionSubject(tool: string, raw: unknown): PermissionSubject {
  const args: Args = typeof raw === 'object' && raw !== null ? (raw as Args) : {};
  switch (tool) {
    case 'bash': {
      const literal = collapse(text(args.command));
      return { literal, forms: [...new Set([literal, ...commandForms(text(args.command))])] };
    }
    case 'editor':
      return single(text(args.file_path ?? args.path));
    case 'reader':
      return single(text(args.path ?? args.file_path ?? args.url));
    case 'search':
      return single(`${text(args.pattern)} ${text(args.path ?? '.')}`);
    case 'subagent':
      return single(`${text(args.permissions ?? 'read_only')} ${text(args.instruction)}`);
    default: {
      const { action, ...rest } = args;
      const values = Object.values(rest)
        .map(text)
        .filter((value) => value !== '');
      return single([text(action), ...values].filter((value) => value !== '').join(' '));
    }
  }
}

/** Programs that run another program given as their arguments; deny rules also look past them. */
const LAUNCHERS = new Set([
  'env',
  'command',
  'exec',
  'nice',
  'nohup',
  'time',
  'timeout',
  'stdbuf',
  'ionice',
  'xargs',
  'sudo',
  'doas',
  'busybox',
  'setsid',
  'chronic',
]);

/**
 * Every way deny rules should see a command: its argv as the shell-free runner will see it (quotes removed, so
 * `'rm' -rf` is `rm -rf`), the program without its directory, and the command again after each launcher such as
 * `env FOO=1`, `nice -n 5` or `timeout 10`. Best effort: bash is not a sandbox.
 */
function commandForms(command: string): string[] {
  const split = splitCommand(command);
  if (!split.ok) return [];
  let argv = split.argv.map((arg) => arg.replace(/\s+/g, ' '));
  const forms: string[] = [];
  while (argv.length > 0) {
    const [program = '', ...rest] = argv;
    const bare = program.slice(program.lastIndexOf('/') + 1);
    forms.push([program, ...rest].join(' '), [bare, ...rest].join(' '));
    if (!LAUNCHERS.has(bare)) break;
    // Skip the launcher's own options, variable assignments and (for timeout) its duration.
    let next = 0;
    while (next < rest.length && /^(-|[A-Za-z_][A-Za-z0-9_]*=|\d+[smhd]?$)/.test(rest[next] as string)) next += 1;
    argv = rest.slice(next);
  }
  return forms;
}

function single(value: string): PermissionSubject {
  const literal = collapse(value);
  return { literal, forms: [literal] };
}

function collapse(value: string): string {
  return value.trim().replace(/\s+/g, ' ');
}

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(text).join(' ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
