import { splitCommand } from '@bough/process';

/** How deny rules see one bash command: every form it could run as, and whether part of it stayed hidden. */
export interface CommandView {
  readonly forms: readonly string[];
  /** True when the command hands a shell a script we could not fully take apart (variables, substitutions, …). */
  readonly opaque: boolean;
}

/** Programs that run another program named among their arguments. */
const LAUNCHERS = new Set([
  'env',
  'command',
  'builtin',
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
  'flock',
  'unbuffer',
  'taskset',
  'chrt',
  'strace',
  'ltrace',
  'fakeroot',
  'caffeinate',
]);

/** Programs whose `-c` option (alone or in a group such as `-lc`) takes a shell script as an argument. */
const SCRIPT_TAKERS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash', 'mksh', 'yash', 'posh', 'su', 'script']);

/** Words a shell reads before the program of a simple command. */
const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '!', '{', '}', 'time']);

/** Bounds of the analysis; beyond them the command counts as opaque. */
export interface CommandViewLimits {
  readonly depth: number;
  readonly forms: number;
}

/**
 * Every way deny rules should see a command: its argv as the shell-free runner will run it (quotes removed), the
 * program without its directory, the command again at each argument after a launcher (`env -u X rm` → `rm`), each
 * command of a script given to a shell with `-c` (`sh -c 'ls; rm x'` → `rm x`), and each `find -exec` command.
 * Best effort: bash is not a sandbox.
 */
export function commandView(command: string, limits: CommandViewLimits): CommandView {
  const collector: Collector = { forms: new Set(), opaque: false, limits };
  const split = splitCommand(command);
  // A command the runner cannot split is refused by the bash tool itself; only its literal text is matched.
  if (split.success) argvForms(split.argv, collector, 0);
  return { forms: [...collector.forms], opaque: collector.opaque };
}

interface Collector {
  readonly forms: Set<string>;
  opaque: boolean;
  readonly limits: CommandViewLimits;
}

function add(collector: Collector, words: readonly string[]): void {
  const form = words.join(' ').replace(/\s+/g, ' ').trim();
  if (form === '') return;
  if (collector.forms.size >= collector.limits.forms) collector.opaque = true;
  else collector.forms.add(form);
}

const baseName = (program: string) => program.slice(program.lastIndexOf('/') + 1);

function argvForms(argv: readonly string[], collector: Collector, depth: number): void {
  if (depth > collector.limits.depth) {
    collector.opaque = true;
    return;
  }
  const visited = new Set<number>();
  const visit = (start: number): void => {
    if (visited.has(start) || start >= argv.length) return;
    visited.add(start);
    const [program = '', ...rest] = argv.slice(start);
    const bare = baseName(program);
    add(collector, [program, ...rest]);
    add(collector, [bare, ...rest]);
    if (SCRIPT_TAKERS.has(bare)) scriptArguments(rest, collector, depth);
    if (bare === 'find') findCommands(rest, collector, depth);
    // A launcher's own options may take values (`env -u NAME`, `timeout -s KILL 5`), so rather than knowing every
    // launcher's syntax, each later non-option word is treated as a possible program. This can over-deny.
    if (LAUNCHERS.has(bare)) {
      for (let index = start + 1; index < argv.length; index += 1) {
        if (!(argv[index] as string).startsWith('-')) visit(index);
      }
    }
  };
  visit(0);
}

/** After a `-c` option, every non-option word is read as a script (a superset of what the shell runs). */
function scriptArguments(args: readonly string[], collector: Collector, depth: number): void {
  const flag = args.findIndex((arg) => /^-[A-Za-z]*c[A-Za-z]*$/.test(arg));
  if (flag < 0) return;
  for (const arg of args.slice(flag + 1)) {
    if (arg !== '--' && !arg.startsWith('-') && !arg.startsWith('+')) scriptForms(arg, collector, depth + 1);
  }
}

/** `find … -exec cmd {} ;` (and -execdir, -ok, -okdir) runs `cmd`. */
function findCommands(args: readonly string[], collector: Collector, depth: number): void {
  for (let index = 0; index < args.length; index += 1) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(args[index] as string)) continue;
    let end = index + 1;
    while (end < args.length && args[end] !== ';' && args[end] !== '+') end += 1;
    argvForms(args.slice(index + 1, end), collector, depth + 1);
    index = end;
  }
}

/** Splits a shell script into simple commands and adds each one's forms; anything we cannot parse is opaque. */
function scriptForms(script: string, collector: Collector, depth: number): void {
  if (depth > collector.limits.depth) {
    collector.opaque = true;
    return;
  }
  const segments = splitScript(script);
  if (!segments) {
    collector.opaque = true;
    add(collector, [script.replace(/['"\\]/g, '')]);
    return;
  }
  for (const segment of segments) {
    if (segment.trim() === '') continue;
    const split = splitCommand(segment);
    if (!split.success) {
      // Variables, substitutions, brace expansion, assignments: the shell decides what runs, so we cannot.
      collector.opaque = true;
      add(collector, [segment.replace(/['"\\]/g, '')]);
      continue;
    }
    let argv = split.argv;
    while (argv.length > 0 && KEYWORDS.has(argv[0] as string)) argv = argv.slice(1);
    if (argv.length === 0) continue;
    if (argv[0] === 'eval') {
      scriptForms(argv.slice(1).join(' '), collector, depth + 1);
      continue;
    }
    // A program name the shell would expand (glob, tilde) is chosen at run time.
    if (/[*?[~]/.test(argv[0] as string)) collector.opaque = true;
    argvForms(argv, collector, depth);
  }
}

/** Cuts a script at unquoted operators (`;` `&` `|` `<` `>` `(` `)` newline); undefined when a quote is left open. */
function splitScript(script: string): string[] | undefined {
  const parts: string[] = [];
  let current = '';
  let index = 0;
  while (index < script.length) {
    const char = script[index] as string;
    if (char === '\\') {
      current += script.slice(index, index + 2);
      index += 2;
    } else if (char === "'") {
      const end = script.indexOf("'", index + 1);
      if (end < 0) return undefined;
      current += script.slice(index, end + 1);
      index = end + 1;
    } else if (char === '"') {
      let end = index + 1;
      while (end < script.length && script[end] !== '"') end += script[end] === '\\' ? 2 : 1;
      if (end >= script.length) return undefined;
      current += script.slice(index, end + 1);
      index = end + 1;
    } else if (';&|<>()\n\r'.includes(char)) {
      parts.push(current);
      current = '';
      index += 1;
    } else {
      current += char;
      index += 1;
    }
  }
  parts.push(current);
  return parts;
}
