import {
  type CheckpointStore,
  type CheckpointSummary,
  type CheckpointsFailure,
  createCheckpointStore,
} from '@bough/checkpoints';
import { flag, has, type ParsedArgs, UsageError } from '../args.js';
import type { CliIO } from '../output.js';
import { workspaceRoot } from '../toolset.js';

function openStore(args: ParsedArgs, io: CliIO): CheckpointStore {
  return createCheckpointStore({ root: workspaceRoot(flag(args, 'workspace'), io.cwd), env: io.env });
}

function fail(io: CliIO, out: CheckpointsFailure, json: boolean): number {
  if (json) io.stdout(`${JSON.stringify(out, null, 2)}\n`);
  else io.stderr(`bough: ${out.error} (${out.error_code})\n`);
  return 1;
}

function line(entry: CheckpointSummary): string {
  const who = [entry.tool, entry.call_id && `call ${entry.call_id}`, entry.branch && `branch ${entry.branch}`]
    .filter(Boolean)
    .join(', ');
  const what = entry.label ?? (entry.kind === 'restore' ? `restore to ${entry.restored_to?.slice(0, 12)}` : entry.kind);
  const files = entry.files.join(' ') + (entry.files_changed > entry.files.length ? ' …' : '');
  return `${entry.id.slice(0, 12)}  ${entry.time}  ${what}${who ? ` (${who})` : ''}\n    ${entry.files_changed} file(s): ${files}\n`;
}

/** `bough checkpoints [diff FROM [TO]]`: the workspace's newest checkpoints, or a diff of one or a range. */
export async function checkpointsCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  const json = has(args, 'json');
  const [sub, from, to, ...extra] = args.positionals;
  if (sub !== undefined && sub !== 'diff')
    throw new UsageError(`Unknown checkpoints subcommand ${JSON.stringify(sub)}.`);
  if (sub === 'diff' && (from === undefined || extra.length > 0)) {
    throw new UsageError('checkpoints diff takes one checkpoint id, or two for a range.');
  }
  const store = openStore(args, io);
  if (sub === 'diff') {
    const out = await store.diff({ from: from!, ...(to ? { to } : {}) });
    if (!out.success) return fail(io, out, json);
    io.stdout(json ? `${JSON.stringify(out, null, 2)}\n` : out.diff);
    return 0;
  }
  const out = await store.list();
  if (!out.success) return fail(io, out, json);
  if (json) io.stdout(`${JSON.stringify(out, null, 2)}\n`);
  else if (out.checkpoints.length === 0) io.stdout(`No checkpoints yet for ${store.root}.\n`);
  else for (const entry of out.checkpoints) io.stdout(line(entry));
  return 0;
}

/**
 * `bough undo [ID] [--force]`: restores the workspace to just before checkpoint ID (default: the newest call or
 * restore). The undo is itself a checkpoint, so running `bough undo` again takes it back.
 */
export async function undoCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  const json = has(args, 'json');
  const [id, ...extra] = args.positionals;
  if (extra.length > 0) throw new UsageError('undo takes at most one checkpoint id.');
  const store = openStore(args, io);
  const list = await store.list({ limit: 50 });
  if (!list.success) return fail(io, list, json);
  const entry = id
    ? list.checkpoints.find((c) => c.id.startsWith(id.toLowerCase()))
    : list.checkpoints.find((c) => c.kind !== 'before' && c.before !== null);
  if (!entry?.before) {
    const why = id ? `no recent checkpoint ${JSON.stringify(id)} with one before it` : 'nothing to undo';
    io.stderr(`bough: ${why} in ${store.root}; see \`bough checkpoints\`.\n`);
    return 1;
  }
  const out = await store.restore({ to: entry.before, ...(has(args, 'force') ? { force: true } : {}) });
  if (!out.success) return fail(io, out, json);
  if (json) io.stdout(`${JSON.stringify(out, null, 2)}\n`);
  else {
    io.stdout(
      `Undid ${entry.id.slice(0, 12)} (${entry.tool ?? entry.kind}): ${out.changed_count} file(s) restored` +
        `${out.changed_files.length ? `: ${out.changed_files.join(' ')}` : ''}.\nRun \`bough undo\` again to take this back.\n`,
    );
  }
  return 0;
}
