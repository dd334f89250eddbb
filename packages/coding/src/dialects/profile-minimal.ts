import type { Tool, ToolRegistry } from '@bough/core';
import { z } from 'zod';
import { dialectTool, forward, pick } from './dialect-tool.js';

const path = z.string().optional().describe('File path, relative to the workspace root.');

/** The `minimal` profile: read, write, edit and bash, with the argument names other harnesses use accepted too. */
export function minimalTools(registry: ToolRegistry): Tool[] {
  const read = z.object({
    file_path: path,
    path: path.describe('Alias of file_path.'),
    offset: z.number().int().optional(),
    limit: z.number().int().optional(),
  });
  const write = z.object({ file_path: path, path: path.describe('Alias of file_path.'), content: z.string() });
  const edit = z.object({
    file_path: path,
    path: path.describe('Alias of file_path.'),
    old_string: z.string().optional().describe('Exact text to replace (aliases: old_str, oldText).'),
    new_string: z.string().optional().describe('Replacement (aliases: new_str, newText).'),
    old_str: z.string().optional(),
    oldText: z.string().optional(),
    new_str: z.string().optional(),
    newText: z.string().optional(),
    replace_all: z.boolean().optional(),
  });
  const bash = z.object({ command: z.string(), timeout: z.number().optional().describe('Milliseconds.') });
  return [
    dialectTool(
      'read',
      'Read a text file as numbered lines (offset: 0-based first line; limit: lines).',
      read,
      (r, o) =>
        forward(
          registry,
          'reader',
          { action: 'read', path: pick(r, 'file_path', 'path') ?? '', offset: r.offset, limit: r.limit },
          o,
        ),
      registry.get('reader'),
    ),
    dialectTool(
      'write',
      'Create or overwrite a file with content.',
      write,
      (r, o) =>
        forward(
          registry,
          'editor',
          { action: 'write', file_path: pick(r, 'file_path', 'path') ?? '', content: r.content },
          o,
        ),
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
            file_path: pick(r, 'file_path', 'path') ?? '',
            old_string: pick(r, 'old_string', 'old_str', 'oldText') ?? '',
            new_string: pick(r, 'new_string', 'new_str', 'newText') ?? '',
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
