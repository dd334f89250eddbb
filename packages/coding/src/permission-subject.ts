import { commandView } from './internal/command-forms.js';
import { DEFAULT_CODING_LIMITS } from './limits.js';

/** The strings permission patterns are matched against for one call. */
export interface PermissionSubject {
  /** The canonical subject (whitespace collapsed). */
  readonly literal: string;
  /** Every form deny rules consider: the literal one and, for bash, the forms the command could run as. */
  readonly forms: readonly string[];
  /** For bash: part of the command is a shell script whose commands could not all be seen (see README). */
  readonly opaque: boolean;
}

type Args = Record<string, unknown>;

/**
 * The subject of a call, per tool: bash → command, editor → file_path, reader → path, search → `pattern path`,
 * subagent → `permissions instruction`, anything else → its action followed by its other values.
 */
export function permissionSubject(
  tool: string,
  raw: unknown,
  limits: { permissionScriptDepth?: number; permissionMaxForms?: number } = {},
): PermissionSubject {
  const args: Args = typeof raw === 'object' && raw !== null ? (raw as Args) : {};
  switch (tool) {
    case 'bash': {
      const literal = collapse(text(args.command));
      const view = commandView(text(args.command), {
        depth: limits.permissionScriptDepth ?? DEFAULT_CODING_LIMITS.permissionScriptDepth,
        forms: limits.permissionMaxForms ?? DEFAULT_CODING_LIMITS.permissionMaxForms,
      });
      return { literal, forms: [...new Set([literal, ...view.forms])], opaque: view.opaque };
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

function single(value: string): PermissionSubject {
  const literal = collapse(value);
  return { literal, forms: [literal], opaque: false };
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
