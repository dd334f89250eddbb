import { createInterface } from 'node:readline';
import type { AskHandler, PermissionAsk } from '@bough/coding';
import type { ProtectedNamePolicy } from '@bough/workspace';
import type { CliIO } from '../output.js';
import { changePreview, touchedPreview } from './preview.js';

/** A remembered `a` answer: this tool, and subjects equal to `prefix` or starting with `prefix` and a space. */
interface Always {
  readonly tool: string;
  readonly prefix: string;
}

/** The pattern an `a` answer remembers: the file for an edit; the program (and its subcommand) for a command. */
export function alwaysPattern(ask: Pick<PermissionAsk, 'tool' | 'subject' | 'opaque'>): Always {
  if (ask.tool !== 'bash' || ask.opaque) return { tool: ask.tool, prefix: ask.subject };
  const words = ask.subject.split(' ');
  const [program, second] = words;
  const sub = second !== undefined && /^[a-z][a-z0-9_-]*$/i.test(second) && words.length > 2 ? ` ${second}` : '';
  return { tool: ask.tool, prefix: words.length === 1 ? ask.subject : `${program}${sub}` };
}

function matches(rule: Always, ask: PermissionAsk): boolean {
  return rule.tool === ask.tool && (ask.subject === rule.prefix || ask.subject.startsWith(`${rule.prefix} `));
}

/** Reads one line from a stream; resolves undefined at end of input or when the signal fires. */
function readLine(input: NodeJS.ReadableStream, signal: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(undefined);
    const rl = createInterface({ input, terminal: false });
    const done = (value: string | undefined) => {
      signal.removeEventListener('abort', onAbort);
      rl.removeAllListeners();
      rl.close();
      // Stop reading so a finished run can exit; a later question resumes the stream.
      (input as NodeJS.ReadStream).pause?.();
      resolve(value);
    };
    const onAbort = () => done(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    rl.once('line', (line) => done(line));
    rl.once('close', () => done(undefined));
  });
}

/** The refusal a run without a terminal gives for every `ask`, saying how to allow such calls. */
export const NO_TERMINAL_REASON =
  'there is no terminal to ask on. Run bough agent on a terminal to approve calls one by one, pass --yes to approve ' +
  "every call the policy asks about (its deny rules still apply), or choose another policy with --permissions (for example 'read_only')";

/**
 * The approver for `bough agent`. On a terminal it shows the call (and, for a change, the editor's dry-run diff) on
 * stderr and reads
 * `y` (once), `n` (deny, with an optional reason for the model) or `a` (always for this tool and pattern, this run).
 * Without a terminal every ask is refused with {@link NO_TERMINAL_REASON}. Ctrl-C while it waits refuses and stops.
 */
export function terminalApprover(
  io: CliIO,
  options: { root: string; signal: AbortSignal; yes: boolean; protectedNames?: ProtectedNamePolicy },
): AskHandler {
  const always: Always[] = [];
  let queue: Promise<unknown> = Promise.resolve();
  return (ask) => {
    if (options.yes) return true;
    if (!io.input || !io.inputIsTTY) return { allow: false, reason: NO_TERMINAL_REASON };
    if (always.some((rule) => matches(rule, ask))) return true;
    const answer = queue.then(() => question(ask));
    queue = answer.catch(() => {});
    return answer;
  };

  async function question(ask: PermissionAsk): Promise<{ allow: boolean; reason?: string }> {
    if (always.some((rule) => matches(rule, ask))) return { allow: true };
    const input = io.input as NodeJS.ReadableStream;
    const policy = ask.policy ? `policy '${ask.policy}'` : 'the permission policy';
    let text = `\n\x1b[1m? the model wants to run ${ask.tool}\x1b[0m (${policy} asks${ask.opaque ? '; the command hands a shell a script that could not be checked' : ''}):\n`;
    text += ask.tool === 'bash' ? `  $ ${commandOf(ask.args)}\n` : `  ${JSON.stringify(ask.args)}\n`;
    // What the call will change comes from its tool's declaration (the one the policy judged), for every tool.
    if (ask.tool !== 'bash') text += touchedPreview(ask.touches);
    if (ask.tool === 'editor') text += await changePreview(ask.args, options.root, options.protectedNames, ask.touches);
    const rule = alwaysPattern(ask);
    text += `  [y] run it once   [n] refuse   [a] always allow ${ask.tool} ${JSON.stringify(rule.prefix)}${ask.tool === 'bash' && rule.prefix !== ask.subject ? ' …' : ''} this session\n`;
    for (;;) {
      io.stderr(`${text}  y/n/a> `);
      text = '';
      const line = await readLine(input, options.signal);
      if (line === undefined) {
        io.stderr('\n');
        return {
          allow: false,
          reason: options.signal.aborted ? 'the user interrupted the run' : 'the user gave no answer',
        };
      }
      const choice = line.trim().toLowerCase();
      if (choice === 'y' || choice === 'yes') return { allow: true };
      if (choice === 'a' || choice === 'always') {
        always.push(rule);
        return { allow: true };
      }
      if (choice === 'n' || choice === 'no') {
        io.stderr('  reason for the model (Enter for none)> ');
        const reason = (await readLine(input, options.signal))?.trim();
        return reason ? { allow: false, reason: `the user said: ${reason}` } : { allow: false };
      }
      io.stderr('  please answer y, n or a\n');
    }
  }
}

function commandOf(args: unknown): string {
  const command = (args as { command?: unknown } | null)?.command;
  return typeof command === 'string' ? command : JSON.stringify(args);
}
