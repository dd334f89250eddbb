import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError } from './bough-error.js';
import { branchProvider, statelessProvider } from './provider.js';
import { ToolRegistry } from './registry.js';
import { defineTool } from './tool.js';

const make = (name: string, value = name) =>
  defineTool({
    name,
    description: `Returns the value ${value} so tests can tell tools apart.`,
    request: z.object({}).strict(),
    handler: async () => value,
  });

describe('ToolRegistry', () => {
  it('registers tools, providers and nested lists in order with provenance', () => {
    const registry = new ToolRegistry();
    const provider = statelessProvider('pair', [make('b'), make('c')]);
    registry.register([make('a'), [provider]]);
    expect(registry.names()).toEqual(['a', 'b', 'c']);
    expect(registry.providerOf('a')).toBeUndefined();
    expect(registry.providerOf('b')).toBe(provider);
    expect(registry.has('c')).toBe(true);
    expect(registry.size).toBe(3);
  });

  it('refuses duplicates with a configuration error naming the tool, and registers nothing from that call', () => {
    const registry = new ToolRegistry();
    registry.register(make('a'));
    expect(() => registry.register([make('z'), make('a')])).toThrow(/Tool a is already registered/);
    expect(registry.names()).toEqual(['a']);
    expect(() => registry.register([make('q'), make('q')])).toThrow(ConfigurationError);
  });

  it('replaces in place with update and keeps the position', async () => {
    const registry = new ToolRegistry();
    registry.register([make('a'), make('b'), make('c')]);
    registry.register(make('b', 'new'), { update: true });
    expect(registry.names()).toEqual(['a', 'b', 'c']);
    expect((await registry.invoke('b', {})).output).toBe('new');
  });

  it('refuses branch-scoped providers without a branch context and junk values', () => {
    const registry = new ToolRegistry();
    expect(() => registry.register(branchProvider('bound', () => []))).toThrow(/register it on a Branch/);
    expect(() => registry.register(42 as never)).toThrow(ConfigurationError);
    expect(() => registry.register({ name: 'x' } as never)).toThrow(ConfigurationError);
  });

  it('refuses a stateless provider that hands out a branch-scoped tool', () => {
    const bound = defineTool({ ...make('bound'), scope: 'branch' });
    expect(() => new ToolRegistry().register(statelessProvider('liar', [bound]))).toThrow(/branch-scoped tool bound/);
  });

  it('reports an unknown tool as a failed call listing what exists', async () => {
    const registry = new ToolRegistry();
    registry.register([make('alpha'), make('beta')]);
    const call = await registry.invoke('gamma', {});
    expect(call.status).toBe('failed');
    expect(call.error?.code).toBe('unknown_tool');
    expect(call.error?.message).toContain('alpha, beta');
    expect(call.output).toMatchObject({ success: false, error_code: 'unknown_tool' });
  });

  it('removes tools', () => {
    const registry = new ToolRegistry();
    registry.register(make('a'));
    expect(registry.remove('a')).toBe(true);
    expect(registry.remove('a')).toBe(false);
    expect(registry.list()).toEqual([]);
  });
});
