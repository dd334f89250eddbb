import { type CodeDiagnostic, fromLspDiagnostic } from '@bough/check';
import type { LspClient, LspDiagnostic } from '@bough/lsp';
import { readWorkspaceText, type Workspace } from '@bough/workspace';
import { lineMapper } from './internal/line-map.js';

/** What a language server said before a change, finished by `after()` once the change succeeded. */
export interface ServerWatch {
  after(): Promise<{ diagnostics: CodeDiagnostic[]; notes: string[] }>;
}

const key = (d: LspDiagnostic, where: string) => `${d.code ?? ''}\u0000${d.message}\u0000${where}`;

/** How lines of the text before map to the text after (the identity for a file the change did not touch). */
type Mapping = ReturnType<typeof lineMapper>;
const UNCHANGED: Mapping = { forward: (line) => ({ line }), region: () => undefined };

/**
 * Diagnostics in `after` that `before` did not have. A finding before the change is matched at its line mapped across
 * the change, so one that only moved is not new and a same-worded one on another line is; a finding on a line the
 * change replaced matches a same-worded one inside that same replaced region (the line was edited, the finding stayed).
 */
function introduced(before: readonly LspDiagnostic[], after: readonly LspDiagnostic[], map: Mapping): LspDiagnostic[] {
  const pool = new Map<string, number>();
  for (const d of before) {
    const to = map.forward(d.range.start.line);
    const k = key(d, 'line' in to ? `${to.line}` : `h${to.hunk}`);
    pool.set(k, (pool.get(k) ?? 0) + 1);
  }
  const take = (k: string) => {
    const left = pool.get(k) ?? 0;
    if (left > 0) pool.set(k, left - 1);
    return left > 0;
  };
  return after.filter((d) => {
    if (take(key(d, `${d.range.start.line}`))) return false;
    const hunk = map.region(d.range.start.line);
    return hunk === undefined || !take(key(d, `h${hunk}`));
  });
}

/** Resolves to the value, or to `undefined` once `ms` passed. */
function within<T>(pending: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((settle) => {
    timer = setTimeout(() => settle(undefined), Math.max(0, ms));
  });
  return Promise.race([pending, late]).finally(() => clearTimeout(timer));
}

async function textOf(ws: Workspace, file: string): Promise<string | undefined> {
  const read = await readWorkspaceText(ws, file, {});
  return read.success ? read.text : undefined;
}

/**
 * Before a change of files a language server answers for: each file's diagnostics for its text now, and what the
 * server last published for the other files it checks (after it went quiet). `after()` sends the new text, waits for
 * the diagnostics of exactly that version, lets the server re-check the others, and keeps what is new: in the changed
 * files with lines mapped across the change, in the others (callers the change broke) as they are. Each phase waits
 * at most `waitMs`; a wait that ran out is said in a note.
 */
export async function watchThroughServer(
  client: LspClient,
  ws: Workspace,
  files: readonly string[],
  waitMs: number,
): Promise<ServerWatch> {
  const notes: string[] = [];
  const settleMs = client.limits.unversionedSettleMs;
  const probe = files[0] as string;
  let deadline = Date.now() + waitMs;
  const before = new Map<string, { text: string; diagnostics: readonly LspDiagnostic[] } | undefined>();
  for (const file of files) {
    const text = await textOf(ws, file);
    if (text === undefined) {
      before.set(file, { text: '', diagnostics: [] }); // a new file: everything in it is new
      continue;
    }
    const got = await within(client.diagnostics(file), deadline - Date.now());
    before.set(file, got?.success ? { text, diagnostics: got.diagnostics } : undefined);
    if (!got) notes.push(`The language server gave no diagnostics for ${file} within ${waitMs} ms before the change.`);
    else if (!got.success) notes.push(`${file}: ${got.error}`);
  }
  const othersBefore = await client.otherDiagnostics(probe, {
    settleMs,
    maxWaitMs: Math.max(0, deadline - Date.now()),
  });
  const earlier = new Map(othersBefore.success ? othersBefore.files.map((f) => [f.file, f.diagnostics]) : []);
  return {
    after: async () => {
      deadline = Date.now() + waitMs;
      const found: CodeDiagnostic[] = [];
      for (const file of files) {
        const was = before.get(file);
        const text = await textOf(ws, file);
        if (!was || text === undefined) continue;
        const got = await within(client.diagnostics(file), deadline - Date.now());
        if (!got) {
          notes.push(
            `The language server did not publish diagnostics for the edited version of ${file} within ${waitMs} ms; run code_check on it.`,
          );
          continue;
        }
        if (!got.success) {
          notes.push(`${file}: ${got.error}`);
          continue;
        }
        if (!got.fresh && got.note) notes.push(`${file}: ${got.note}`);
        const map = lineMapper(was.text, text);
        found.push(...introduced(was.diagnostics, got.diagnostics, map).map((d) => fromLspDiagnostic(file, d)));
      }
      const others = await client.otherDiagnostics(probe, { settleMs, maxWaitMs: Math.max(0, deadline - Date.now()) });
      if (others.success) {
        if (!others.settled)
          notes.push(
            `The language server was still checking other files after ${waitMs} ms; callers the change broke may be missing.`,
          );
        for (const other of others.files) {
          if (files.includes(other.file)) continue;
          const fresh = introduced(earlier.get(other.file) ?? [], other.diagnostics, UNCHANGED);
          found.push(...fresh.map((d) => fromLspDiagnostic(other.file, d)));
        }
      }
      return { diagnostics: found, notes };
    },
  };
}
