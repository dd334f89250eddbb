// Turns the permission policy's path deny rules into the OS sandbox's mount rules (denyRead / denyWrite), so commands
// inside the sandbox meet the same rules as the file tools. The two glob dialects differ (the policy's `*` crosses
// `/` and matches case-insensitively; the sandbox uses picomatch), so only the forms that translate exactly are
// translated, and every other rule is reported rather than dropped. Our own code: no library converts between them.
import { ConfigurationError } from '@bough/core';
import type { PermissionPolicy } from '@bough/policy';

/** The sandbox rules one policy gives, and the rules it could not translate (with why). */
export interface SandboxDenyRules {
  readonly denyRead: readonly string[];
  readonly denyWrite: readonly string[];
  readonly untranslated: readonly { readonly rule: string; readonly why: string }[];
}

/** `*`, `**`: a rule about a whole tool, not about paths (the policy refuses the tool's calls outright). */
const catchAll = (pattern: string) => /^\*+$/.test(pattern);

/**
 * The policy's deny rules as sandbox mounts: `'*'` and `reader` rules hide paths (`denyRead`), `'*'` and `editor`
 * rules mount them read-only (`denyWrite`). Catch-all rules are left out: they deny the tool, not paths.
 */
function sandboxDenyRules(policy: PermissionPolicy): SandboxDenyRules {
  const deny = policy.deny ?? {};
  const untranslated = new Map<string, string>();
  const translate = (rules: readonly string[]) => {
    const out = new Set<string>();
    for (const rule of rules) {
      if (catchAll(rule)) continue;
      const glob = sandboxGlob(rule);
      if (typeof glob === 'string') out.add(glob);
      else untranslated.set(rule, glob.why);
    }
    return [...out];
  };
  const all = deny['*'] ?? [];
  return {
    denyRead: translate([...all, ...(deny.reader ?? [])]),
    denyWrite: translate([...all, ...(deny.editor ?? [])]),
    untranslated: [...untranslated].map(([rule, why]) => ({ rule, why })),
  };
}

/**
 * The picomatch glob matching exactly the paths one policy rule denies, or why there is none. Three forms translate:
 * a plain path (`config/prod.json`), a directory and everything under it (`secrets/**`, `secrets/*`: the policy's
 * `*` crosses `/`), and a name ending anywhere (`*.pem`: any depth). A directory the sandbox finds is hidden whole,
 * so it can only be stricter than the policy, never looser.
 */
export function sandboxGlob(rule: string): string | { readonly why: string } {
  if (rule.trim() === '') return { why: 'it is empty' };
  if (/[?[\]{}()!+@\\]/.test(rule)) return { why: 'it uses ?, [], or a character the sandbox glob reads differently' };
  if (rule.startsWith('/') || rule.startsWith('~')) return { why: 'it is not relative to the workspace root' };
  if (rule.split('/').some((part) => part === '..' || part === '.')) return { why: 'it has a . or .. segment' };
  const tail = /^([^*]+)\/\*+$/.exec(rule);
  if (!rule.includes('*')) return anyCase(rule);
  if (tail) return `${anyCase(tail[1] as string)}/**`;
  const head = /^\*+([^*/]+)$/.exec(rule);
  if (head) return `**/*${anyCase(head[1] as string)}`;
  return { why: "a * inside it matches across '/' in the policy, which a mount glob cannot express exactly" };
}

/** Each letter as a two-case class, so picomatch matches as case-insensitively as the policy does. */
function anyCase(text: string): string {
  let out = '';
  for (const ch of text) {
    const lower = ch.toLowerCase();
    const upper = ch.toUpperCase();
    out += lower !== upper && lower.length === 1 && upper.length === 1 ? `[${lower}${upper}]` : ch;
  }
  return out;
}

/** What the toolkit does with the policy's deny rules for its command sandbox. */
export interface PolicySandbox {
  /** The mounts to add to bash's options (absent when the sandbox is off or not in effect). */
  readonly mounts?: { readonly denyRead: readonly string[]; readonly denyWrite: readonly string[] };
  /** Said on every command result: which policy rules commands are not confined by. */
  readonly note?: string;
}

/**
 * The policy's deny rules for the command sandbox in `mode`. Under `required` a rule the sandbox cannot express is
 * refused (a `ConfigurationError` naming it); under `auto` the sandbox gets the rules it can express and the note
 * names the others, and where bubblewrap is missing (commands then run plainly) the note says no rule confines them.
 *
 * @param available whether bubblewrap works here (asked only when the mode uses it)
 * @throws ConfigurationError under `required`, for the first rule that cannot be translated
 */
export function policySandbox(
  policy: PermissionPolicy,
  mode: string | undefined,
  available: () => boolean,
): PolicySandbox {
  if (mode !== 'auto' && mode !== 'required') return {};
  const rules = sandboxDenyRules(policy);
  const first = rules.untranslated[0];
  if (mode === 'required' && first) {
    throw new ConfigurationError(
      `The permission policy's deny rule ${JSON.stringify(first.rule)} cannot be enforced inside the OS sandbox ` +
        `(${first.why}), so commands could reach what it denies. Write it as a plain path, "dir/**" or "*.ext", ` +
        "or set commandSandbox to 'auto' (commands then run without that rule, and are told so).",
    );
  }
  const named = rules.denyRead.length + rules.denyWrite.length + rules.untranslated.length > 0;
  if (!named) return {};
  if (!available()) {
    return {
      note: 'The OS sandbox is not in effect here, so the permission policy’s path deny rules do not confine this command.',
    };
  }
  const mounts = { denyRead: rules.denyRead, denyWrite: rules.denyWrite };
  if (!first) return { mounts };
  const list = rules.untranslated.map((r) => JSON.stringify(r.rule)).join(', ');
  return {
    mounts,
    note: `The permission policy’s deny rule(s) ${list} cannot be expressed inside the OS sandbox and do not confine this command.`,
  };
}
