import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { executeTool } from './call.js';
import { type ParsedRequest, parseToolRequest } from './parsed-request.js';
import { ToolRegistry } from './registry.js';
import { defineTool } from './tool.js';

/** A tool that counts its schema's parses and records every request its handler received. */
function counted() {
  const seen = { parses: 0, handled: [] as unknown[] };
  const tool = defineTool({
    name: 'add',
    description: 'Adds two integers, counting how often its arguments are parsed.',
    request: z
      .object({ a: z.number().int(), b: z.number().int() })
      .strict()
      .transform((request) => {
        seen.parses++;
        return request;
      }),
    handler: async (request) => {
      seen.handled.push(request);
      return { sum: request.a + request.b };
    },
  });
  return { tool, seen };
}

/** Something that is not a core-made parse but is shaped like one: what a caller could try to pass off. */
function forged(tool: { request: z.ZodType }, data: unknown): ParsedRequest {
  return { schema: tool.request, data } as unknown as ParsedRequest;
}

function parsedOf<REQ>(result: ReturnType<typeof parseToolRequest<REQ>>): ParsedRequest<REQ> {
  if (!result.success) throw new Error('expected a successful parse');
  return result.parsed;
}

describe('ExecuteOptions.parsed', () => {
  it("takes a core-made parse of these very arguments by the tool's own schema instead of parsing again", async () => {
    const { tool, seen } = counted();
    const args = { a: 2, b: 3 };
    const parsed = parsedOf(parseToolRequest(tool, args));
    expect(parsed.data).toEqual({ a: 2, b: 3 });
    const call = await executeTool(tool, args, { parsed });
    expect(call.output).toEqual({ sum: 5 });
    expect(seen.parses).toBe(1);
  });

  it('ignores a forged object shaped like a parse: the arguments are validated and bad ones never reach the handler', async () => {
    const { tool, seen } = counted();
    const hooked: unknown[] = [];
    const registry = new ToolRegistry();
    registry.register(tool);
    registry.addHooks('*', { pre: [({ args }) => void hooked.push(args)] });
    const bad = { a: 'x', b: 3 };
    const call = await registry.invoke('add', bad, { parsed: forged(tool, bad) });
    expect(call.status).toBe('failed');
    expect(call.error?.code).toBe('invalid_request');
    expect(call.output).toMatchObject({ success: false, error_code: 'invalid_request' });
    expect(seen.handled).toEqual([]);
    expect(hooked).toEqual([]);

    // Valid arguments with forged data: the arguments are parsed, the forged data is not used.
    const swapped = await executeTool(tool, { a: 2, b: 3 }, { parsed: forged(tool, { a: 2, b: 30 }) });
    expect(swapped.output).toEqual({ sum: 5 });
    expect(seen.parses).toBe(1);
  });

  it('ignores a copy of a real parse, as a forgery', async () => {
    const { tool, seen } = counted();
    const args = { a: 2, b: 3 };
    const copy = { ...parsedOf(parseToolRequest(tool, args)) } as ParsedRequest;
    expect((await executeTool(tool, args, { parsed: copy })).output).toEqual({ sum: 5 });
    expect(seen.parses).toBe(2);
  });

  it('ignores a real parse made by another schema or from other arguments', async () => {
    const { tool, seen } = counted();
    const other = counted().tool;
    const args = { a: 2, b: 3 };
    const foreign = parsedOf(parseToolRequest(other, args));
    expect((await executeTool(tool, args, { parsed: foreign })).output).toEqual({ sum: 5 });
    expect(seen.parses).toBe(1);

    const elsewhere = parsedOf(parseToolRequest(tool, { a: 2, b: 30 }));
    const bad = { a: 'x', b: 3 };
    const call = await executeTool(tool, bad, { parsed: elsewhere });
    expect(call.error?.code).toBe('invalid_request');
    expect(seen.handled).toEqual([{ a: 2, b: 3 }]);
  });

  it('serves one call only: a handler may change its request in place, and the next call parses again', async () => {
    const mutating = defineTool({
      name: 'grab',
      description: 'Changes its request in place, as a handler may.',
      request: z.object({ n: z.number().int() }).strict(),
      handler: async (request) => {
        const before = request.n;
        (request as { n: unknown }).n = 'changed';
        return { n: before };
      },
    });
    const args = { n: 1 };
    const parsed = parsedOf(parseToolRequest(mutating, args));
    expect((await executeTool(mutating, args, { parsed })).output).toEqual({ n: 1 });
    expect((await executeTool(mutating, args, { parsed })).output).toEqual({ n: 1 });
  });

  it('reports a refusal as the schema worded it, without a parse to pass on', () => {
    const { tool } = counted();
    const result = parseToolRequest(tool, { a: 'x' });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.issues.length).toBeGreaterThan(0);
  });
});
