import {
  isToolFailure,
  type Tool,
  ToolRegistry,
  type Touches,
  toMcpTool,
  toOpenAITool,
  toolJsonSchema,
  touchedPaths,
} from '@bough/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeWorkspace, type TempWorkspace } from './workspace.js';

/** What the shared conformance suite needs to exercise one tool. */
export interface ConformanceOptions {
  /** Builds the tool for a workspace root. */
  readonly makeTool: (ws: TempWorkspace) => Tool;
  /** A request that succeeds in a workspace prepared by `setup`. */
  readonly validRequest: (ws: TempWorkspace) => unknown;
  /** Prepares files before each case. */
  readonly setup?: (ws: TempWorkspace) => void;
  /** Requests that must be refused as `invalid_request` (wrong types, unknown fields, missing fields). */
  readonly invalidRequests: readonly unknown[];
  /** Requests that try to leave the workspace; each must fail without leaking the outside canary. */
  readonly escapeRequests?: (ws: TempWorkspace) => readonly unknown[];
  /** Whether the handler itself validates (default true): calling it directly with bad input returns a failure. */
  readonly handlerValidates?: boolean;
  /** Requests and exactly what the tool must declare they touch (`tool.touches` of the parsed request). */
  readonly touchCases?: (ws: TempWorkspace) => readonly { readonly request: unknown; readonly touches: Touches }[];
}

/**
 * Checks an answer the tool itself produced against the tool's own response schema (when it declares one): what
 * MCP advertises as `outputSchema` and what typed callers narrow on must describe every real answer.
 */
function expectOwnResponse(tool: Tool, output: unknown, label: string): void {
  if (!tool.response) return;
  const parsed = tool.response.safeParse(output);
  const issues = parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3));
  expect(parsed.success, `${tool.name} answer to ${label} does not match its response schema: ${issues}`).toBe(true);
}

/** What a tool declares a request touches, from the request as its schema parses it. */
function touchesOf(tool: Tool, request: unknown): Touches {
  const parsed = tool.request.safeParse(request);
  if (!parsed.success) throw new Error(`not a valid ${tool.name} request: ${JSON.stringify(request)}`);
  const declare = tool.touches;
  if (!declare) throw new Error(`${tool.name} does not declare what its requests touch`);
  return declare(parsed.data);
}

/**
 * The suite every tool package runs: schema export, typed invalid-input failures, abort, no escapes, no throws, and
 * every answer the tool gives matching its own response schema.
 */
export function describeToolConformance(name: string, options: ConformanceOptions): void {
  describe(`${name} conformance`, () => {
    let ws: TempWorkspace;
    let tool: Tool;
    beforeEach(() => {
      ws = makeWorkspace();
      options.setup?.(ws);
      tool = options.makeTool(ws);
    });
    afterEach(() => ws.cleanup());

    it('exports its request schema as JSON Schema and to every host format', () => {
      const schema = toolJsonSchema(tool);
      expect(schema.type).toBe('object');
      expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
      expect(toOpenAITool(tool).function.name).toBe(tool.name);
      expect(toMcpTool(tool).inputSchema).toEqual(schema);
      expect(tool.description.length).toBeGreaterThan(40);
      expect(Object.isFrozen(tool)).toBe(true);
    });

    it('runs a valid request through the registry, validating it once', async () => {
      const registry = new ToolRegistry();
      registry.register(tool);
      const parses = vi.spyOn(tool.request, 'safeParse');
      try {
        const call = await registry.invoke(tool.name, options.validRequest(ws));
        expect(call.status).toBe('completed');
        expect(isToolFailure(call.output)).toBe(false);
        expectOwnResponse(tool, call.output, 'the valid request');
        // The registry parsed the request; a handler that validates its input uses that result (core's parseOnce)
        // instead of parsing again. A pre hook could change the arguments in place, and then they are parsed again.
        if ((tool.hooks?.pre?.length ?? 0) === 0) expect(parses).toHaveBeenCalledTimes(1);
      } finally {
        parses.mockRestore();
      }
    });

    it('turns invalid input into a typed failure, never a throw', async () => {
      const registry = new ToolRegistry();
      registry.register(tool);
      for (const bad of options.invalidRequests) {
        const call = await registry.invoke(tool.name, bad);
        expect(call.status, JSON.stringify(bad)).toBe('failed');
        expect(call.error?.code).toBe('invalid_request');
        if (options.handlerValidates !== false) {
          const direct = await tool.handler(bad as never, { signal: new AbortController().signal, callId: 'direct' });
          expect(isToolFailure(direct), JSON.stringify(bad)).toBe(true);
          expectOwnResponse(tool, direct, JSON.stringify(bad));
        }
      }
    });

    it('honours an abort signal', async () => {
      const registry = new ToolRegistry();
      registry.register(tool);
      const controller = new AbortController();
      controller.abort(new Error('stop'));
      const call = await registry.invoke(tool.name, options.validRequest(ws), { signal: controller.signal });
      expect(call.status).toBe('cancelled');
      expect(call.error?.code).toBe('aborted');
    });

    it('declares what a request touches (the one declaration policies and MCP roots read)', () => {
      expect(typeof tool.touches).toBe('function');
      const touches = touchesOf(tool, options.validRequest(ws));
      for (const path of touchedPaths(touches)) expect(typeof path).toBe('string');
      for (const { request, touches: expected } of options.touchCases?.(ws) ?? []) {
        expect(touchesOf(tool, request), JSON.stringify(request)).toEqual(expected);
      }
    });

    if (options.escapeRequests) {
      const escapes = options.escapeRequests;
      it('refuses to leave the workspace and leaks nothing', async () => {
        const requests = escapes(ws);
        expect(requests.length).toBeGreaterThan(0);
        for (const request of requests) {
          const output = await tool.handler(request as never, { signal: new AbortController().signal, callId: 'x' });
          expect(isToolFailure(output), JSON.stringify(request)).toBe(true);
          expect(JSON.stringify(output)).not.toContain('OUTSIDE-SECRET-CANARY');
          expectOwnResponse(tool, output, JSON.stringify(request));
        }
      });

      // Every way out goes through a path the tool declares, so a path rule sees it before the handler runs.
      it('declares a path for every request that tries to leave the workspace', () => {
        for (const request of escapes(ws)) {
          if (!tool.request.safeParse(request).success) continue;
          expect(touchedPaths(touchesOf(tool, request)).length, JSON.stringify(request)).toBeGreaterThan(0);
        }
      });
    } else {
      // A tool given no escape requests must have nothing to escape through: its declaration names no path.
      it('names no path for its requests, so there is nothing to escape through', () => {
        expect(touchedPaths(touchesOf(tool, options.validRequest(ws)))).toEqual([]);
      });
    }
  });
}
