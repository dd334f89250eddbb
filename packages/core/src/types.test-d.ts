// Type-only checks: `tsc` (the package's typecheck) verifies them; vitest does not run *.test-d.ts files, so no
// test counts as passing without checking something at run time.
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type {
  ActionCall,
  ActOptions,
  Branch,
  BranchView,
  ChatModel,
  CloneOptions,
  ExecuteOptions,
  Message,
  MessageRole,
  PreHookResult,
  Provider,
  ProviderContext,
  Registrable,
  RegistryEntry,
  Tool,
  ToolCall,
  ToolCallStatus,
  ToolContext,
  ToolFailure,
  ToolScope,
} from './index.js';
import { defineTool, failure } from './index.js';

describe('public types', () => {
  it('pins the lifecycle, roles and scopes as closed unions', () => {
    expectTypeOf<ToolCallStatus>().toEqualTypeOf<'pending' | 'processing' | 'completed' | 'failed' | 'cancelled'>();
    expectTypeOf<MessageRole>().toEqualTypeOf<'system' | 'user' | 'assistant' | 'action_request' | 'action_response'>();
    expectTypeOf<ToolScope>().toEqualTypeOf<'stateless' | 'branch'>();
    expectTypeOf<NonNullable<ActOptions['strategy']>>().toEqualTypeOf<'concurrent' | 'sequential'>();
    expectTypeOf<NonNullable<CloneOptions['unbound']>>().toEqualTypeOf<'error' | 'drop'>();
    expectTypeOf<NonNullable<Provider['rebind']>>().toEqualTypeOf<'rebuild' | 'reject'>();
  });

  it('keeps the Provider protocol to build(context) and the context to what DESIGN lists', () => {
    expectTypeOf<Provider['build']>().parameters.toEqualTypeOf<[ProviderContext]>();
    expectTypeOf<ReturnType<Provider['build']>>().toEqualTypeOf<readonly Tool[]>();
    expectTypeOf<ProviderContext['branch']>().toEqualTypeOf<BranchView>();
    expectTypeOf<NonNullable<ToolContext['branch']>>().toEqualTypeOf<BranchView>();
    // Tools see the record and the active view, never the registry, act or clone of the branch they serve.
    expectTypeOf<Branch>().toExtend<BranchView>();
    expectTypeOf<BranchView>().not.toHaveProperty('act');
    expectTypeOf<BranchView>().not.toHaveProperty('registerTools');
    expectTypeOf<BranchView>().not.toHaveProperty('clone');
    expectTypeOf<ProviderContext['model']>().toEqualTypeOf<ChatModel | undefined>();
    expectTypeOf<ProviderContext['abandoned']>().toEqualTypeOf<AbortSignal | undefined>();
    expectTypeOf<ToolContext['signal']>().toEqualTypeOf<AbortSignal>();
  });

  it('types failures, messages, calls and registration inputs', () => {
    expectTypeOf(failure('x', 'y')).toExtend<ToolFailure>();
    expectTypeOf(failure('x', 'y', { count: 1 })).toExtend<ToolFailure & { count: number }>();
    expectTypeOf<ToolFailure['success']>().toEqualTypeOf<false>();
    expectTypeOf<Message['id']>().toEqualTypeOf<string>();
    expectTypeOf<Message['origin']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ToolCall['status']>().toEqualTypeOf<ToolCallStatus>();
    expectTypeOf<ActionCall>().toHaveProperty('arguments');
    expectTypeOf<ExecuteOptions['timeoutMs']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<RegistryEntry['provider']>().toEqualTypeOf<Provider | undefined>();
    expectTypeOf<Tool>().toExtend<Registrable>();
    expectTypeOf<Provider[]>().toExtend<Registrable>();
    expectTypeOf<{ decision: 'deny'; reason: string }>().toExtend<PreHookResult>();
  });

  it('infers handler argument types from the zod request schema', () => {
    const tool = defineTool({
      name: 'typed',
      description: 'Typed tool for type tests.',
      request: z.object({ n: z.number(), tag: z.enum(['a', 'b']).optional() }).strict(),
      handler: async ({ n }) => ({ doubled: n * 2 }),
    });
    expectTypeOf<Parameters<typeof tool.handler>[0]>().toEqualTypeOf<{ n: number; tag?: 'a' | 'b' | undefined }>();
    expectTypeOf<Awaited<ReturnType<typeof tool.handler>>>().toEqualTypeOf<{ doubled: number }>();
  });
});
