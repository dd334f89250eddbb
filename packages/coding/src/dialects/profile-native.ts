import type { Tool, ToolRegistry } from '@bough/core';
import { z } from 'zod';
import { commandResult, executeAnthropicBash } from './anthropic-bash.js';
import { patchFailureText } from './apply-patch.js';
import { runCommand } from './command-output.js';
import { callRegistry } from './dialect-call.js';
import { dialectFailure } from './dialect-failure.js';
import { dialectTool } from './dialect-tool.js';
import { executeTextEditor } from './text-editor.js';

/** The `anthropic` profile: the text editor and bash tools with Anthropic's names and parameters, as MCP tools. */
export function anthropicProfileTools(registry: ToolRegistry): Tool[] {
  const editor = z.object({
    command: z.enum(['view', 'create', 'str_replace', 'insert']),
    path: z.string(),
    view_range: z.array(z.number().int()).optional().describe('[start, end], 1-based; end -1 = to the end.'),
    file_text: z.string().optional().describe('create: the file content.'),
    old_str: z.string().optional().describe('str_replace: exact text, must match once.'),
    new_str: z.string().optional(),
    insert_line: z.number().int().optional().describe('insert: after this line (0 = top).'),
    insert_text: z.string().optional(),
  });
  const bash = z.object({ command: z.string().optional(), restart: z.boolean().optional() });
  return [
    dialectTool('str_replace_based_edit_tool', 'View, create and edit files.', editor, (r, o) =>
      executeTextEditor(registry, r, o),
    ),
    dialectTool('bash', 'Run a command (one program, no shell operators).', bash, (r, o) =>
      executeAnthropicBash(registry, r, o),
    ),
  ];
}

/** An argv as one command line bough's bash parses back into the same words. */
function quoted(argv: readonly string[]): string {
  return argv.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`)).join(' ');
}

/** The `openai` profile: Codex's `apply_patch` (the patch envelope as `input`) and `shell` (an argv), as MCP tools. */
export function openaiProfileTools(registry: ToolRegistry): Tool[] {
  const patch = z.object({ input: z.string().describe('The patch: *** Begin Patch … *** End Patch.') });
  const shell = z.object({
    command: z.array(z.string()).min(1).describe('The program and its arguments.'),
    workdir: z.string().optional(),
    timeout_ms: z.number().optional(),
  });
  return [
    dialectTool('apply_patch', 'Add, update, move or delete files with one patch.', patch, async (r, o) => {
      const patched = await callRegistry(registry, 'editor', { action: 'patch', patch: r.input }, o);
      if (!patched.ok) return dialectFailure(patchFailureText(patched.failure), patched.failure.error_code);
      const files = Array.isArray(patched.value.files)
        ? (patched.value.files as { op: string; relative: string }[])
        : [];
      const letter: Record<string, string> = { add: 'A', update: 'M', delete: 'D', move: 'M' };
      return `Success. Updated the following files:\n${files.map((f) => `${letter[f.op] ?? 'M'} ${f.relative}`).join('\n')}`;
    }),
    dialectTool('shell', 'Run a command given as an argv (no shell operators).', shell, async (r, o) => {
      const where = {
        ...(r.workdir ? { cwd: r.workdir } : {}),
        ...(r.timeout_ms ? { commandTimeoutMs: r.timeout_ms } : {}),
      };
      return commandResult(await runCommand(registry, quoted(r.command), { ...o, ...where }));
    }),
  ];
}
