import type { ToolRegistry } from '@bough/core';
import { callRegistry, type DialectCallOptions } from './dialect-call.js';

/**
 * Models trained on a shell-only tool set (OpenAI's shell, Anthropic's bash) read files with `cat FILE` or
 * `sed -n 'A,Bp' FILE`. Those two forms are served by the reader instead of a process, so the read is one the
 * read-before-edit guard sees (a later apply_patch or str_replace is then allowed, as after a reader call) and the
 * workspace gate and protected names apply. Anything else, or any read the reader does not show whole, falls back
 * to running the command. The output is the file's text, as cat or sed would print it.
 */
const CAT = /^cat\s+([\w./@+-]+)$/;
const SED = /^sed\s+-n\s+'?(\d+),(\d+)p'?\s+([\w./@+-]+)$/;

/** The reader window a plain read command asks for, or undefined when the command is anything else. */
function readCommandOf(command: string): { path: string; offset?: number; limit?: number } | undefined {
  const trimmed = command.trim();
  const cat = CAT.exec(trimmed);
  if (cat) return { path: cat[1] as string };
  const sed = SED.exec(trimmed);
  if (!sed) return undefined;
  const start = Number(sed[1]);
  const end = Number(sed[2]);
  if (start < 1 || end < start) return undefined;
  return { path: sed[3] as string, offset: start - 1, limit: end - start + 1 };
}

/** The text a read command prints, read through the reader; undefined when it must run as a command instead. */
export async function readThroughReader(
  registry: ToolRegistry,
  command: string,
  options: DialectCallOptions,
  step: string,
): Promise<string | undefined> {
  const wanted = readCommandOf(command);
  if (!wanted || !registry.has('reader')) return undefined;
  const read = await callRegistry(registry, 'reader', { action: 'read', ...wanted }, options, step);
  if (!read.ok || read.value.type !== 'text' || typeof read.value.content !== 'string') return undefined;
  // A whole-file read that the reader windowed would print less than cat does: run the real command instead.
  if (wanted.limit === undefined && typeof read.value.next_offset === 'number') return undefined;
  const rows = read.value.content === '' ? [] : read.value.content.split('\n');
  return rows.map((row) => row.replace(/^\d+\t/, '')).join('\n') + (rows.length > 0 ? '\n' : '');
}
