// The routes of the policy matrix: every way a tool call can reach a path under `secrets/`, shared by the matrix
// through the toolkit and its variant through the MCP front door.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { PermissionPolicy } from '@bough/policy';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';

/** What the workspace's secret files hold; no answer may show it. */
export const CANARY = 'TOP-SECRET-CANARY';
/** The policy under test: everything allowed except any path under `secrets/`. */
export const DENY_SECRETS: PermissionPolicy = { allow: { '*': ['*'] }, deny: { '*': ['secrets/**'] } };

/** An apply_patch text of these lines. */
export const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

/**
 * Every route to a path under `secrets/`: tool and arguments. Each is refused with `denied`, by the policy hook or, for a
 * route through the link `pub`, by the tool's own gate under the policy's rule.
 */
export const ROUTES: readonly (readonly [string, (ws: TempWorkspace) => Record<string, unknown>])[] = [
  ['editor', () => ({ action: 'write', file_path: 'secrets/new.txt', content: 'x' })],
  ['editor', () => ({ action: 'write', file_path: 'secrets/new.txt', content: 'x', dry_run: true })],
  ['editor', (ws) => ({ action: 'write', file_path: join(ws.root, 'secrets', 'abs.txt'), content: 'x' })],
  ['editor', () => ({ action: 'write', file_path: 'src/../secrets/dots.txt', content: 'x' })],
  ['editor', () => ({ action: 'edit', file_path: 'secrets/key.txt', old_string: CANARY, new_string: 'gone' })],
  [
    'editor',
    () => ({ action: 'multi_edit', file_path: 'secrets/key.txt', edits: [{ old_string: 'T', new_string: 'x' }] }),
  ],
  ['editor', () => ({ action: 'patch', patch: patch('*** Add File: secrets/added.txt', '+planted') })],
  ['editor', () => ({ action: 'patch', patch: patch('*** Add File: secrets/added.txt', '+x'), dry_run: true })],
  [
    'editor',
    () => ({
      action: 'patch',
      patch: patch('*** Update File: notes.txt', '*** Move to: secrets/n.txt', '@@', '-note', '+moved'),
    }),
  ],
  ['editor', () => ({ action: 'patch', patch: patch('*** Delete File: secrets/key.txt') })],
  ['editor', () => ({ action: 'move', file_path: 'notes.txt', destination: 'secrets/notes.txt' })],
  ['editor', () => ({ action: 'move', file_path: 'secrets/key.txt', destination: 'key.txt' })],
  ['editor', () => ({ action: 'mkdir', file_path: 'secrets/sub' })],
  ['reader', () => ({ action: 'read', path: 'secrets/key.txt' })],
  ['reader', () => ({ action: 'read', path: 'pub/key.txt' })],
  ['editor', () => ({ action: 'write', file_path: 'pub/new.txt', content: 'x' })],
  ['editor', () => ({ action: 'patch', patch: patch('*** Add File: pub/added.txt', '+x') })],
  ['editor', () => ({ action: 'move', file_path: 'notes.txt', destination: 'pub/notes.txt' })],
  ['reader', () => ({ action: 'read_many', paths: ['notes.txt', 'secrets/key.txt'] })],
  ['reader', () => ({ action: 'list_dir', path: 'secrets' })],
  ['reader', () => ({ action: 'stat', path: 'secrets/key.txt' })],
  ['reader', () => ({ action: 'open', path: 'secrets/page.html' })],
  ['search', () => ({ action: 'grep', pattern: 'SECRET', path: 'secrets' })],
  ['search', () => ({ action: 'find', pattern: '*', path: 'secrets/' })],
  ['code_nav', () => ({ action: 'outline', path: 'secrets/s.py' })],
  ['code_nav', () => ({ action: 'find_references', path: 'secrets', symbol: 'leak' })],
  ['code_check', () => ({ paths: ['src/a.py', 'secrets/s.py'] })],
  ['ast_search', () => ({ pattern: 'print($A)', path: 'secrets' })],
  ['bash', () => ({ command: 'cat key.txt', cwd: 'secrets' })],
  ['bash', () => ({ command: 'sleep 5', cwd: 'secrets', background: true })],
  ['subagent', () => ({ instruction: 'read key.txt', cwd: 'secrets' })],
];

/** Searches of the whole workspace: they run, and show nothing under `secrets/`. */
export const WHOLE: readonly (readonly [string, Record<string, unknown>])[] = [
  ['search', { action: 'grep', pattern: 'SECRET' }],
  ['search', { action: 'find', pattern: '*.txt' }],
  ['reader', { action: 'list_dir', path: '.', recursive: true }],
  ['ast_search', { pattern: 'print($A)' }],
  ['code_nav', { action: 'find_definition', symbol: 'leak' }],
  ['code_nav', { action: 'outline' }],
  ['code_check', {}],
  ['jobs', { action: 'list' }],
];

/** A workspace with secrets (and a link to them, `pub`), notes and source; `cleanup()` removes it. */
export function secretsWorkspace(): TempWorkspace {
  const ws = makeWorkspace({
    'secrets/key.txt': `${CANARY}\n`,
    'secrets/s.py': `import os\n\n\ndef leak():\n    print("${CANARY}")\n`,
    'secrets/page.html': `<p>${CANARY}</p>`,
    'notes.txt': 'note\n',
    'src/a.py': 'print(1)\n',
  });
  symlinkSync(join(ws.root, 'secrets'), join(ws.root, 'pub'));
  return ws;
}
