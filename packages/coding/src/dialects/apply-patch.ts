import type { ToolFailure, ToolRegistry } from '@bough/core';
import { callRegistry, type DialectCallOptions } from './dialect-call.js';

/** One file operation of OpenAI's `apply_patch` tool, as the AI SDK hands it over. */
export type ApplyPatchOperation =
  | { readonly type: 'create_file'; readonly path: string; readonly diff: string }
  | { readonly type: 'update_file'; readonly path: string; readonly diff: string }
  | { readonly type: 'delete_file'; readonly path: string };

/** One `apply_patch` call. */
export interface ApplyPatchInput {
  readonly operation: ApplyPatchOperation;
}

/**
 * The answer `apply_patch` expects: whether the operation was applied, and a text for the model. `failed` is the
 * tool's own failure (the Responses API receives it as the call output's status), so this shape is the typed failure.
 */
export interface ApplyPatchOutput {
  readonly status: 'completed' | 'failed';
  readonly output?: string;
}

/** What a failed patch tells the model: an `Error: ` line with the editor's explanation (what failed, nothing applied). */
export function patchFailureText(failure: ToolFailure): string {
  return `Error: ${failure.error}`;
}

const LETTER = { create_file: 'A', update_file: 'M', delete_file: 'D' } as const;

/** A create's diff is the new file's lines each prefixed with `+`; a bare text is taken as the content itself. */
function addedLines(diff: string): string {
  const lines = (diff.endsWith('\n') ? diff.slice(0, -1) : diff).split('\n');
  if (diff === '') return '';
  return lines.every((line) => line.startsWith('+')) ? lines.join('\n') : lines.map((line) => `+${line}`).join('\n');
}

/** The operation as one `*** Begin Patch` envelope, the format the editor's `patch` action applies. */
function envelopeOf(operation: ApplyPatchOperation): string {
  const body =
    operation.type === 'create_file'
      ? [`*** Add File: ${operation.path}`, addedLines(operation.diff)]
      : operation.type === 'update_file'
        ? [`*** Update File: ${operation.path}`, operation.diff.replace(/\n$/, '')]
        : [`*** Delete File: ${operation.path}`];
  return ['*** Begin Patch', ...body.filter((line) => line !== ''), '*** End Patch', ''].join('\n');
}

/**
 * Applies one `apply_patch` operation with the editor's `patch` action through the registry (all or nothing; the
 * read-before-edit guard, the permission policy and the workspace gate apply) and answers in the tool's shape.
 * Never throws: a refused or conflicting patch is a `failed` status with the editor's explanation.
 */
export async function executeApplyPatch(
  registry: ToolRegistry,
  input: ApplyPatchInput,
  options: DialectCallOptions = {},
): Promise<ApplyPatchOutput> {
  const operation = input?.operation;
  if (!operation || typeof operation.path !== 'string' || !(operation.type in LETTER)) {
    return {
      status: 'failed',
      output: 'Error: the operation needs a type (create_file, update_file, delete_file) and a path.',
    };
  }
  if (operation.type !== 'delete_file' && typeof operation.diff !== 'string') {
    return { status: 'failed', output: `Error: ${operation.type} needs a diff.` };
  }
  const patched = await callRegistry(registry, 'editor', { action: 'patch', patch: envelopeOf(operation) }, options);
  if (!patched.ok) return { status: 'failed', output: patchFailureText(patched.failure) };
  return {
    status: 'completed',
    output: `Success. Updated the following files:\n${LETTER[operation.type]} ${operation.path}`,
  };
}
