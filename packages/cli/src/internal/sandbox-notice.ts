import { type SandboxMode, sandboxSupport } from '@bough/process';

/**
 * The start-up line telling the person running the CLI that commands will not run in the OS sandbox they asked for:
 * `auto` without a usable bubblewrap runs them plainly, `required` refuses them. Undefined when the sandbox works,
 * when it is off, or when no tool runs commands. The probe is the one bash uses (cached per process), so it costs the
 * first command nothing more.
 */
export function sandboxNotice(
  command: string,
  mode: SandboxMode | undefined,
  tools: readonly string[],
): string | undefined {
  if (mode === undefined || mode === 'off' || !tools.includes('bash')) return undefined;
  const support = sandboxSupport();
  if (support.available) return undefined;
  if (mode === 'required') {
    return `bough ${command}: warning: the OS sandbox is required but cannot be used here (${support.reason}); every command will be refused. Install bubblewrap (or allow unprivileged user namespaces), or pass --sandbox off.\n`;
  }
  return `bough ${command}: warning: the OS sandbox cannot be used here (${support.reason}); commands will run WITHOUT it, able to read and change anything this user can. Install bubblewrap (or allow unprivileged user namespaces), pass --sandbox required to refuse commands instead, or --sandbox off to run them plainly without this warning.\n`;
}
