import type { Tool, ToolFailure, ToolRegistry } from '@bough/core';
import { z } from 'zod';
import { withArgumentAliases } from './argument-aliases.js';
import { refusedCall, runCommand } from './command-output.js';
import { callRegistry } from './dialect-call.js';
import { dialectFailure } from './dialect-failure.js';
import { dialectTool } from './dialect-tool.js';

// Gemini CLI's releases name these fields differently (`absolute_path`, `path`, `directory`): the shared alias table
// renames those before validation, so only today's names are advertised.
const file = { file_path: z.string().describe('Path of the file.') };
const dir = {
  dir_path: z.string().optional().describe('Directory, relative to the workspace root; default the root.'),
};
/** A failure of the tool behind, as Gemini CLI words a tool error (and MCP marks it `isError`). */
const err = (failure: ToolFailure) => dialectFailure(`Error: ${failure.error}`, failure.error_code);

/**
 * The `gemini` profile: Gemini CLI's file and shell tools with their names and parameters, as MCP tools over the
 * registry's reader, editor, search and bash tools. Answers follow Gemini CLI's plain-text style.
 */
export function geminiProfileTools(registry: ToolRegistry): Tool[] {
  const readFile = withArgumentAliases(
    'read_file',
    z.object({
      ...file,
      offset: z.number().int().optional().describe('0-based first line.'),
      limit: z.number().int().optional(),
    }),
  );
  const writeFile = withArgumentAliases('write_file', z.object({ ...file, content: z.string() }));
  const replace = withArgumentAliases(
    'replace',
    z.object({
      ...file,
      old_string: z.string(),
      new_string: z.string(),
      expected_replacements: z.number().int().min(1).optional().describe('Occurrences to replace (default 1).'),
      // Newer Gemini CLI releases take this instead of expected_replacements: replace every occurrence.
      allow_multiple: z.boolean().optional().describe('Replace every occurrence.'),
    }),
  );
  const glob = withArgumentAliases(
    'glob',
    z.object({ pattern: z.string(), ...dir, case_sensitive: z.boolean().optional() }),
  );
  const grep = withArgumentAliases(
    'search_file_content',
    z.object({
      pattern: z.string().describe('Regular expression.'),
      ...dir,
      include: z.string().optional().describe('File glob, e.g. *.ts'),
    }),
  );
  const shell = withArgumentAliases(
    'run_shell_command',
    z.object({ command: z.string(), description: z.string().optional(), ...dir }),
  );
  const list = withArgumentAliases('list_directory', z.object({ ...dir }));
  return [
    dialectTool('read_file', 'Read a file (offset and limit for a window of lines).', readFile, async (r, o) => {
      const read = await callRegistry(
        registry,
        'reader',
        { action: 'read', path: r.file_path, offset: r.offset, limit: r.limit },
        o,
      );
      if (!read.ok) return err(read.failure);
      const rows = String(read.value.content ?? '').replace(/^\d+\t/gm, '');
      const next = read.value.next_offset;
      return typeof next === 'number'
        ? `[Lines ${read.value.start_line}-${read.value.end_line} of ${read.value.total_lines ?? 'more'} shown; continue with offset ${next}.]\n${rows}`
        : rows;
    }),
    dialectTool('write_file', 'Write content to a file, creating or replacing it.', writeFile, async (r, o) => {
      const done = await callRegistry(
        registry,
        'editor',
        { action: 'write', file_path: r.file_path, content: r.content },
        o,
      );
      if (!done.ok) return err(done.failure);
      return done.value.created
        ? `Successfully created and wrote to new file: ${r.file_path}.`
        : `Successfully overwrote file: ${r.file_path}.`;
    }),
    dialectTool('replace', 'Replace exact text in a file you have read.', replace, async (r, o) => {
      const expected = r.expected_replacements ?? 1;
      const args = {
        action: 'edit',
        file_path: r.file_path,
        old_string: r.old_string,
        new_string: r.new_string,
        replace_all: expected > 1 || r.allow_multiple === true,
      };
      if (expected > 1 && r.allow_multiple !== true) {
        const trial = await callRegistry(registry, 'editor', { ...args, dry_run: true }, o, 'count');
        if (!trial.ok) return err(trial.failure);
        if (trial.value.replacements !== expected) {
          const found = String(trial.value.replacements);
          return dialectFailure(`Failed to edit, expected ${expected} occurrences but found ${found}. No edits made.`);
        }
      }
      const done = await callRegistry(registry, 'editor', args, o);
      if (!done.ok) {
        const count = (done.failure as { match_count?: unknown }).match_count;
        const code = done.failure.error_code;
        if (code === 'multiple_matches')
          return dialectFailure(
            `Failed to edit, expected 1 occurrence but found ${String(count)}. No edits made.`,
            code,
          );
        if (code === 'not_found_in_file') {
          const text = `Failed to edit, 0 occurrences found for old_string in ${r.file_path}. No edits made.`;
          return dialectFailure(`${text}\n${done.failure.error}`, code);
        }
        return err(done.failure);
      }
      return `Successfully modified file: ${r.file_path} (${String(done.value.replacements)} replacements).`;
    }),
    dialectTool('glob', 'Find files whose path matches a glob, newest first.', glob, async (r, o) => {
      const found = await callRegistry(
        registry,
        'search',
        {
          action: 'find',
          pattern: r.pattern,
          path: r.dir_path ?? '',
          ...(r.case_sensitive === false ? { case_insensitive: true } : {}),
        },
        o,
      );
      if (!found.ok) return err(found.failure);
      return found.value.count === 0
        ? `No files found matching pattern "${r.pattern}".`
        : `Found ${String(found.value.count)} file(s) matching "${r.pattern}":\n${String(found.value.content)}`;
    }),
    dialectTool('search_file_content', 'Search file contents with a regular expression.', grep, async (r, o) => {
      const found = await callRegistry(
        registry,
        'search',
        { action: 'grep', pattern: r.pattern, path: r.dir_path ?? '', ...(r.include ? { glob: r.include } : {}) },
        o,
      );
      if (!found.ok) return err(found.failure);
      return found.value.count === 0
        ? `No matches found for pattern "${r.pattern}".`
        : `Found ${String(found.value.count)} match(es) for pattern "${r.pattern}":\n${String(found.value.content)}`;
    }),
    dialectTool('run_shell_command', 'Run one program with arguments (no shell operators).', shell, async (r, o) => {
      const cwd = r.dir_path ?? '';
      const outcome = await runCommand(registry, r.command, { ...o, ...(cwd ? { cwd } : {}) });
      if (outcome.refused) return refusedCall(outcome.refused);
      return [
        `Command: ${r.command}`,
        `Directory: ${cwd || '(root)'}`,
        `Stdout: ${outcome.stdout.replace(/\n$/, '') || '(empty)'}`,
        `Stderr: ${outcome.stderr.replace(/\n$/, '') || '(empty)'}`,
        `Exit Code: ${outcome.timedOut ? '(timed out)' : String(outcome.exitCode)}`,
      ].join('\n');
    }),
    dialectTool('list_directory', 'List the entries of a directory.', list, async (r, o) => {
      const listed = await callRegistry(registry, 'reader', { action: 'list_dir', path: r.dir_path ?? '' }, o);
      if (!listed.ok) return err(listed.failure);
      const all = Array.isArray(listed.value.entries) ? (listed.value.entries as string[]) : [];
      // Directories first, then files, each sorted (the order Gemini CLI shows).
      const dirs = all.filter((entry) => entry.endsWith('/')).map((entry) => `[DIR] ${entry.slice(0, -1)}`);
      const entries = [...dirs, ...all.filter((entry) => !entry.endsWith('/'))];
      return `Directory listing for ${r.dir_path || '.'}:\n${entries.join('\n')}`;
    }),
  ];
}
