import { commandView } from './internal/command-forms.js';
import { DEFAULT_POLICY_LIMITS } from './limits.js';

/** The strings permission patterns are matched against for one call. */
export interface PermissionSubject {
  /** The canonical subject (whitespace collapsed). */
  readonly literal: string;
  /** Every form deny rules consider: the literal one and, for bash, the forms the command could run as. */
  readonly forms: readonly string[];
  /** For bash: part of the command is a shell script whose commands could not all be seen (see README). */
  readonly opaque: boolean;
}

/** Bounds of the bash command analysis (see `DEFAULT_POLICY_LIMITS`). */
export interface PermissionLimits {
  readonly permissionScriptDepth?: number;
  readonly permissionMaxForms?: number;
}

/**
 * Says what one call of a tool is, for its permission rules: the call's arguments (an object; anything else arrives
 * as `{}`) become the subject the patterns are matched against. A source brings its own (`ToolSource.permissionSubject`),
 * the way it brings its evidence extractor.
 */
export type PermissionSubjectDescriber = (
  args: Readonly<Record<string, unknown>>,
  limits: PermissionLimits,
) => PermissionSubject;

/** A subject of one string: whitespace collapsed, no other forms, nothing hidden (for describers of your own). */
export function literalSubject(value: string): PermissionSubject {
  const literal = collapse(value);
  return { literal, forms: [literal], opaque: false };
}

/** The subject of a tool with no describer of its own: its `action`, then its other values, space-separated. */
export const genericSubject: PermissionSubjectDescriber = (args) => {
  const { action, ...rest } = args;
  const values = Object.values(rest)
    .map(text)
    .filter((value) => value !== '');
  return literalSubject([text(action), ...values].filter((value) => value !== '').join(' '));
};

/** bash: the command, plus (for deny rules) every form it could run as; opaque when a script could not be seen into. */
const bashSubject: PermissionSubjectDescriber = (args, limits) => {
  const literal = collapse(text(args.command));
  const view = commandView(text(args.command), {
    depth: limits.permissionScriptDepth ?? DEFAULT_POLICY_LIMITS.permissionScriptDepth,
    forms: limits.permissionMaxForms ?? DEFAULT_POLICY_LIMITS.permissionMaxForms,
  });
  return { literal, forms: [...new Set([literal, ...view.forms])], opaque: view.opaque };
};

/**
 * The describers of the standard tools whose rules are not path rules, by tool name: bash → the command (and the
 * forms it could run as), subagent → `permissions instruction`. Every other standard tool's rules are matched against
 * the paths it declares it touches (`Tool.touches`), so it has no describer. A caller that evaluates a policy by tool
 * name alone gets these, and a source of its own for one of these tools can reuse one.
 */
export const STANDARD_PERMISSION_SUBJECTS: Readonly<Record<string, PermissionSubjectDescriber>> = Object.freeze({
  bash: bashSubject,
  subagent: (args) => literalSubject(`${text(args.permissions ?? 'read_only')} ${text(args.instruction)}`),
});

/** The standard describer of a tool name, or the generic one for every other name. */
export function standardSubjectOf(tool: string): PermissionSubjectDescriber {
  return (
    (Object.hasOwn(STANDARD_PERMISSION_SUBJECTS, tool) ? STANDARD_PERMISSION_SUBJECTS[tool] : undefined) ??
    genericSubject
  );
}

/**
 * The subject of one call: `describe` (a source's own describer) when given, else the standard describer of `tool`
 * (see {@link STANDARD_PERMISSION_SUBJECTS}), else the generic one (action, then the other values).
 */
export function permissionSubject(
  tool: string,
  raw: unknown,
  limits: PermissionLimits = {},
  describe: PermissionSubjectDescriber = standardSubjectOf(tool),
): PermissionSubject {
  const args = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  return describe(args, limits);
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
