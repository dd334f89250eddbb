import { defineTool, limitText, type Provider, statelessProvider, type Tool } from '@bough/core';
import type { Workspace } from '@bough/workspace';
import { DocumentCache } from './document-cache.js';
import { handleReader, openReaderWorkspace } from './handle-reader.js';
import { type ReaderLimits, resolveReaderLimits } from './limits.js';
import type { ReaderOptions } from './reader-options.js';
import { readerModelText, readerSummary } from './render.js';
import { ReaderRequest, ReaderResponse } from './schema.js';
import { readerTouches } from './touches.js';

const DESCRIPTION_TEMPLATE = [
  'Read files and list directories inside the workspace.',
  "action 'read' returns numbered rows '<line>\\t<text>' (1-based) for a window of a text file: offset is 0-based,",
  'limit defaults to {defaultLineLimit} lines; follow next_offset to continue. Long lines are cut with a marker. Images (png, jpg,',
  "gif, webp, bmp, svg) come back inline as a data URL. Binary files are refused with 'binary_file'.",
  "action 'open' converts .pdf, .docx, .pptx, .html or .htm (or an allowed https URL) to text and pages through it",
  "with the same offset/limit window. action 'list_dir' lists a directory (recursive and file_types optional),",
  "directories end with '/', and the response says what was skipped (ignored, protected, links).",
  "action 'read_many' reads several files (paths, at most {maxReadManyPaths}) in one call, each with its own result or failure;",
  "action 'stat' tells whether a path is a file or directory, its size, mtime, mode and line count.",
  'When you edit a file afterwards, copy text from the rows WITHOUT the line-number prefix.',
].join(' ');

/** The model-facing description, stating the limits this tool was built with. */
export function readerDescription(limits: ReaderLimits): string {
  return limitText(DESCRIPTION_TEMPLATE, limits);
}

/**
 * Builds the `reader` tool with its own document cache (unless one is shared through options). Limits are resolved
 * here, once: a bad override throws a `ConfigurationError` naming the key.
 */
export function createReaderTool(options: ReaderOptions): Tool<ReaderRequest, ReaderResponse> {
  const limits = resolveReaderLimits(options.limits);
  const cache =
    options.cache ??
    new DocumentCache({ ttlMs: options.cacheTtlMs ?? limits.cacheTtlMs, maxEntries: limits.cacheMaxEntries });
  let shared: Promise<Workspace> | undefined;
  const workspace = (): Promise<Workspace> => {
    shared ??= openReaderWorkspace(options).catch((error: unknown) => {
      shared = undefined;
      throw error;
    });
    return shared;
  };
  return defineTool({
    name: 'reader',
    description: readerDescription(limits),
    request: ReaderRequest,
    response: ReaderResponse,
    scope: 'stateless',
    annotations: { readOnlyHint: true, openWorldHint: (options.allowedHosts?.length ?? 0) > 0 },
    touches: readerTouches,
    toModelText: readerModelText,
    summarize: readerSummary,
    handler: async (request, context) => {
      const ws = await workspace().catch(() => undefined);
      return handleReader(request, {
        ...options,
        limits,
        cache,
        ...(ws ? { workspace: ws } : {}),
        signal: context.signal,
      });
    },
  });
}

/** A stateless provider handing out the `reader` tool. */
export function readerProvider(options: ReaderOptions): Provider {
  return statelessProvider('reader', () => [createReaderTool(options)]);
}
