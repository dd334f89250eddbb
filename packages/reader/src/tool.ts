import { defineTool, limitText, type Provider, statelessProvider, type Tool } from '@bough/core';
import type { Workspace } from '@bough/workspace';
import { DocumentCache } from './document-cache.js';
import { handleReader, openReaderWorkspace } from './handle-reader.js';
import { type ReaderLimits, resolveReaderLimits } from './limits.js';
import type { ReaderOptions } from './reader-options.js';
import { readerModelText, readerSummary } from './render.js';
import { ReaderRequest, ReaderResponse } from './schema.js';
import { readerTouches } from './touches.js';

// Lean on purpose (it is sent with every request): what each action is for; the rest is said by the answers.
const DESCRIPTION_TEMPLATE = [
  "Read files and list directories in the workspace. read: a text file as rows '<line>\\t<text>' (offset 0-based,",
  'limit defaults to {defaultLineLimit} lines; continue from next_offset); images inline. open: .pdf/.docx/.pptx/.html',
  'or an https URL as text. list_dir: a directory. read_many: at most {maxReadManyPaths} paths. stat: kind, size,',
  'mtime, lines.',
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
        parsedBy: context.parsedBy,
      });
    },
  });
}

/** A stateless provider handing out the `reader` tool. */
export function readerProvider(options: ReaderOptions): Provider {
  return statelessProvider('reader', () => [createReaderTool(options)]);
}
