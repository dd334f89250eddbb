import { ConfigurationError } from './bough-error.js';
import type { BranchView } from './branch-view.js';
import type { ChatModel } from './chat-model.js';
import type { Tool, ToolScope } from './tool.js';

/** What a provider may use when it builds its tools. */
export interface ProviderContext {
  readonly branch: BranchView;
  readonly workspaceRoot?: string;
  readonly model?: ChatModel;
  /**
   * Aborted when the branch these tools were built for is thrown away before anyone could use it (a clone whose
   * other providers failed to build). A provider that did something outside the branch while building (joined an
   * exchange, opened a session) undoes it when this fires. Absent when building for an existing branch.
   */
  readonly abandoned?: AbortSignal;
}

/**
 * One protocol for every tool source (ADR-0013 Delta 1): a stateless provider builds shareable tools,
 * a branch provider builds tools bound to `context.branch` and is asked again when a branch is cloned.
 */
export interface Provider {
  readonly name: string;
  readonly scope: ToolScope;
  build(context: ProviderContext): readonly Tool[];
  /** What `Branch.clone()` does with a branch provider: build again for the clone (default) or refuse the clone. */
  readonly rebind?: 'rebuild' | 'reject';
}

/** True when a value looks like a {@link Provider}. */
export function isProvider(value: unknown): value is Provider {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Provider).build === 'function' &&
    typeof (value as Provider).name === 'string' &&
    ((value as Provider).scope === 'stateless' || (value as Provider).scope === 'branch')
  );
}

/** A provider that always hands out the same frozen tools; building is free and the tools are shared by clones. */
export function statelessProvider(name: string, tools: readonly Tool[] | (() => readonly Tool[])): Provider {
  let cached: readonly Tool[] | undefined;
  return Object.freeze({
    name,
    scope: 'stateless' as const,
    build(): readonly Tool[] {
      if (!cached) {
        cached = Object.freeze([...(typeof tools === 'function' ? tools() : tools)]);
        for (const tool of cached) {
          if (tool.scope !== 'stateless') {
            throw new ConfigurationError(
              `Stateless provider ${name} cannot hand out the branch-scoped tool ${tool.name}.`,
            );
          }
        }
      }
      return cached;
    },
  });
}

/** Declares a branch-scoped provider from a build function (sugar over the {@link Provider} object shape). */
export function branchProvider(
  name: string,
  build: (context: ProviderContext) => readonly Tool[],
  options: { rebind?: 'rebuild' | 'reject' } = {},
): Provider {
  return Object.freeze({ name, scope: 'branch' as const, build, rebind: options.rebind ?? 'rebuild' });
}
