import type { Tool, ToolRegistry } from '@bough/core';
import { z } from 'zod';
import { withArgumentAliases } from './argument-aliases.js';
import { dialectTool, forward } from './dialect-tool.js';

const path = z.string().describe('File path, relative to the workspace root.');

/** The `minimal` profile: read, write, edit and bash, with the argument names other harnesses use accepted too. */
export function minimalTools(registry: ToolRegistry): Tool[] {
  // Other harnesses' names (path, old_str, oldText, file_text …) are renamed before validation, never advertised.
  const read = withArgumentAliases(
    'read',
    z.object({ file_path: path, offset: z.number().int().optional(), limit: z.number().int().optional() }),
  );
  const write = withArgumentAliases('write', z.object({ file_path: path, content: z.string() }));
  const edit = withArgumentAliases(
    'edit',
    z.object({
      file_path: path,
      old_string: z.string().describe('Exact text to replace.'),
      new_string: z.string(),
      replace_all: z.boolean().optional(),
    }),
  );
  const bash = withArgumentAliases(
    'bash',
    z.object({ command: z.string(), timeout: z.number().optional().describe('Milliseconds.') }),
  );
  return [
    dialectTool(
      'read',
      'Read a text file as numbered lines (offset: 0-based first line; limit: lines).',
      read,
      (r, o) => forward(registry, 'reader', { action: 'read', path: r.file_path, offset: r.offset, limit: r.limit }, o),
      registry.get('reader'),
    ),
    dialectTool(
      'write',
      'Create or overwrite a file with content.',
      write,
      (r, o) => forward(registry, 'editor', { action: 'write', file_path: r.file_path, content: r.content }, o),
      registry.get('editor'),
    ),
    dialectTool(
      'edit',
      'Replace one exact text in a file you have read (replace_all for every occurrence).',
      edit,
      (r, o) =>
        forward(
          registry,
          'editor',
          {
            action: 'edit',
            file_path: r.file_path,
            old_string: r.old_string,
            new_string: r.new_string,
            ...(r.replace_all !== undefined ? { replace_all: r.replace_all } : {}),
          },
          o,
        ),
      registry.get('editor'),
    ),
    dialectTool(
      'bash',
      'Run one program with arguments (no shell operators).',
      bash,
      (r, o) =>
        forward(
          registry,
          'bash',
          { command: r.command, ...(r.timeout !== undefined ? { timeout: r.timeout } : {}) },
          o,
        ),
      registry.get('bash'),
    ),
  ];
}
