import { describeZodError, errorMessage, failure } from '@bough/core';
import { Workspace } from '@bough/workspace';
import { resolveReaderLimits } from './limits.js';
import { listDir } from './list-dir.js';
import { isDocumentExtension, openDocument } from './open-document.js';
import { extensionOf, readFile, windowOf } from './read-file.js';
import type { ReaderOptions } from './reader-options.js';
import { isUrlLike, unsupportedScheme } from './remote/url-policy.js';
import { ReaderRequest, type ReaderResponse } from './schema.js';

/** Opens the workspace a reader works in. */
export async function openReaderWorkspace(options: ReaderOptions): Promise<Workspace> {
  if (options.workspace) return options.workspace;
  return Workspace.open(
    options.workspaceRoot,
    options.protectedNames ? { protectedNames: options.protectedNames } : {},
  );
}

/** The pure reader handler: validates, then reads, opens or lists inside the workspace; failures are values. */
export async function handleReader(
  request: unknown,
  options: ReaderOptions & { signal?: AbortSignal },
): Promise<ReaderResponse> {
  const parsed = ReaderRequest.safeParse(request);
  if (!parsed.success) return failure('invalid_request', `Invalid reader request: ${describeZodError(parsed.error)}`);
  const req = parsed.data;
  if (options.signal?.aborted) return failure('aborted', 'The call was cancelled before it started.');
  const limits = resolveReaderLimits(options.limits);
  const window = windowOf(req.offset, req.limit, limits);
  if (isUrlLike(req.path)) {
    if (req.action === 'open') return openDocument(undefined, req.path, window, limits, options);
    if (!/^https:/i.test(req.path)) return unsupportedScheme(req.path);
    return failure('invalid_request', `${req.action} takes a workspace path; use action 'open' for an https URL.`);
  }
  let ws: Workspace;
  try {
    ws = await openReaderWorkspace(options);
  } catch (error) {
    return failure('invalid_workspace', `The reader's workspace root is unusable: ${errorMessage(error)}`);
  }
  switch (req.action) {
    case 'list_dir':
      return listDir(
        ws,
        req.path,
        {
          recursive: req.recursive ?? false,
          fileTypes: req.file_types,
          ...(options.signal ? { signal: options.signal } : {}),
        },
        limits,
      );
    case 'open':
      return openDocument(ws, req.path, window, limits, options);
    default:
      if (
        isDocumentExtension(extensionOf(req.path)) &&
        extensionOf(req.path) !== 'html' &&
        extensionOf(req.path) !== 'htm'
      ) {
        return openDocument(ws, req.path, window, limits, options);
      }
      return readFile(ws, req.path, window, limits, options.signal);
  }
}
