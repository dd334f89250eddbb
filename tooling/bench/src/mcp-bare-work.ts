// The file work of the reference filesystem server and nothing else, shared by the mcp suite's bench-only servers
// (mcp-floor-server, mcp-sdk-bare-server): read, write to a temp file beside the target and rename, replace text,
// list. No workspace gate, read-before-edit state or policy. Never a real tool: bench use only.
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A call of the bare tool: what to do, on which path relative to the served directory. */
export interface BareRequest {
  action: 'read' | 'write' | 'edit' | 'list';
  path: string;
  content?: string | undefined;
  old_string?: string | undefined;
  new_string?: string | undefined;
}

/** What the bare tool answers. */
export type BareResponse =
  | { success: true; content?: string; entries?: string[]; message?: string }
  | { success: false; error: string; error_code: string };

let temps = 0;
/** What the reference does for an existing file: the new content in a temp file beside it, then a rename. */
function replace(path: string, content: string): void {
  const temp = `${path}.${process.pid}-${temps++}.tmp`;
  writeFileSync(temp, content);
  renameSync(temp, path);
}

/** Does one bare request against `root`. */
export function bareWork(root: string, request: BareRequest): BareResponse {
  const { action, path: rel, content, old_string, new_string } = request;
  const path = join(root, rel);
  if (action === 'read') return { success: true, content: readFileSync(path, 'utf8') };
  if (action === 'list') return { success: true, entries: readdirSync(path).sort() };
  if (action === 'write') {
    replace(path, content ?? '');
    return { success: true, message: `Wrote ${rel}.` };
  }
  const text = readFileSync(path, 'utf8');
  if (old_string === undefined || !text.includes(old_string))
    return { success: false, error: 'no match', error_code: 'no_match' };
  replace(path, text.replace(old_string, new_string ?? ''));
  return { success: true, message: `Edited ${rel}.` };
}
