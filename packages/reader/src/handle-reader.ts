import { describeZodError, errorMessage, type OnlyKnownFields, parseOnce, type ToolContext } from '@bough/core';
import { Workspace } from '@bough/workspace';
import { extensionOf } from '@bough/workspace/internal';
import { failure } from './errors.js';
import { resolveReaderLimits } from './limits.js';
import { listDir } from './list-dir.js';
import { isDocumentExtension, openDocument } from './open-document.js';
import { readFile, windowOf } from './read-file.js';
import { readMany } from './read-many.js';
import type { ReaderOptions } from './reader-options.js';
import { isUrlLike, unsupportedScheme } from './remote/url-policy.js';
import { type ReaderInput, ReaderRequest, type ReaderResponse, type ReaderResponseFor } from './schema.js';
import { statPath } from './stat-path.js';

/** Opens the workspace a reader works in. */
export async function openReaderWorkspace(options: ReaderOptions): Promise<Workspace> {
  if (options.workspace) return options.workspace;
  return Workspace.open(options.workspaceRoot, {
    ...(options.protectedNames ? { protectedNames: options.protectedNames } : {}),
    ...(options.linkRule ? { linkRule: options.linkRule } : {}),
  });
}

/**
 * The pure reader handler: validates, then reads, opens or lists inside the workspace; failures are values. The
 * request is typed as the schema's input and the response follows its `action` (narrow it with `success`); the
 * request is still validated at run time, since it may come from a model, unless `options.parsedBy` (the tool's
 * `context.parsedBy`) says the executor already parsed it with the reader's schema.
 */
export async function handleReader<R extends ReaderInput>(
  request: R & OnlyKnownFields<R, ReaderInput>,
  options: ReaderOptions & { signal?: AbortSignal; parsedBy?: ToolContext['parsedBy'] },
): Promise<ReaderResponseFor<R['action']>> {
  return (await readerResponse(request, options)) as ReaderResponseFor<R['action']>;
}

async function readerResponse(
  request: unknown,
  options: ReaderOptions & { signal?: AbortSignal; parsedBy?: ToolContext['parsedBy'] },
): Promise<ReaderResponse> {
  const parsed = parseOnce(ReaderRequest, request, options.parsedBy);
  if (!parsed.success) return failure('invalid_request', `Invalid reader request: ${describeZodError(parsed.error)}`);
  const req = parsed.data;
  if (options.signal?.aborted) return failure('aborted', 'The call was cancelled before it started.');
  const limits = resolveReaderLimits(options.limits);
  const window = windowOf(req.offset, req.limit, limits);
  if (req.action === 'read_many') {
    if (!req.paths || req.paths.length === 0) {
      return failure('invalid_request', "read_many needs `paths`: the list of files to read (use 'read' for one).");
    }
    if (req.paths.length > limits.maxReadManyPaths) {
      return failure(
        'invalid_request',
        `read_many takes at most ${limits.maxReadManyPaths} paths (got ${req.paths.length}); split them into several calls.`,
      );
    }
    const each = (path: string) =>
      readerResponse({ action: 'read', path, offset: req.offset, limit: req.limit }, { ...options, limits });
    return readMany(req.paths, each, limits, options.signal);
  }
  const path = req.path;
  if (path === undefined) {
    return failure('invalid_request', `${req.action} needs \`path\`: the file or directory to work on.`);
  }
  if (isUrlLike(path)) {
    if (req.action === 'open') return openDocument(undefined, path, window, limits, options);
    if (!/^https:/i.test(path)) return unsupportedScheme(path);
    return failure('invalid_request', `${req.action} takes a workspace path; use action 'open' for an https URL.`);
  }
  let ws: Workspace;
  try {
    ws = await openReaderWorkspace(options);
  } catch (error) {
    return failure('workspace_unavailable', `The reader's workspace root is unusable: ${errorMessage(error)}`);
  }
  switch (req.action) {
    case 'stat':
      return statPath(ws, path, limits, options.signal);
    case 'list_dir':
      return listDir(
        ws,
        path === '' ? '.' : path,
        {
          recursive: req.recursive ?? false,
          fileTypes: req.file_types,
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.hidden ? { hidden: options.hidden } : {}),
        },
        limits,
      );
    case 'open':
      return openDocument(ws, path, window, limits, options);
    default:
      if (isDocumentExtension(extensionOf(path)) && extensionOf(path) !== 'html' && extensionOf(path) !== 'htm') {
        return openDocument(ws, path, window, limits, options);
      }
      return readFile(ws, path, window, limits, options.signal);
  }
}
