import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { type CapturedIO, captureIO } from './capture-io.js';
import { type FakeOpenAI, type FakeStep, startFakeOpenAI } from './fake-openai.js';
import { makeWorkspace, type TempWorkspace } from './workspace.js';

/** The CLI's `main` as these helpers call it (structural, so test-utils needs no CLI import). */
export type AgentMain = (argv: string[], io: CapturedIO, signal: AbortSignal) => Promise<number>;

/** What one `bough agent` run against the fake model printed, its exit code and what the model was sent. */
export interface AgentRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
  readonly requests: FakeOpenAI['requests'];
}

/** A fresh workspace and fake model per test, and a way to run `bough agent` against them. */
export interface FakeModelAgent {
  /** This test's workspace (made before each test, removed after it). */
  readonly ws: TempWorkspace;
  /** This test's fake model, once {@link FakeModelAgent.serve} or {@link FakeModelAgent.run} started one. */
  readonly server: FakeOpenAI | undefined;
  /** Starts a fake model with `steps`, closing the one started before; the last one is closed after the test. */
  serve(steps: FakeStep[]): Promise<FakeOpenAI>;
  /** Runs `bough agent <argv>` in the workspace against a new fake model answering with `steps`. */
  run(steps: FakeStep[], argv: string[], env?: Record<string, string>, extra?: object): Promise<AgentRun>;
}

const never = new AbortController().signal;

/**
 * Registers the beforeEach/afterEach pair the agent tests share: a workspace holding `files` and, when a test starts
 * one, a fake OpenAI-compatible model. Model retries wait 1 ms unless `env` says otherwise; `XDG_STATE_HOME` (where
 * the agent keeps its checkpoints) is the test's own `state` folder beside the workspace.
 */
export function useFakeModelAgent(main: AgentMain, files: Record<string, string>): FakeModelAgent {
  let ws: TempWorkspace | undefined;
  let server: FakeOpenAI | undefined;
  beforeEach(() => {
    ws = makeWorkspace(files);
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    ws?.cleanup();
    ws = undefined;
  });
  const workspace = (): TempWorkspace => {
    if (!ws) throw new Error('useFakeModelAgent: the workspace exists only while a test runs.');
    return ws;
  };
  const serve = async (steps: FakeStep[]) => {
    await server?.close();
    server = await startFakeOpenAI(steps);
    return server;
  };
  return {
    get ws() {
      return workspace();
    },
    get server() {
      return server;
    },
    serve,
    async run(steps, argv, env = {}, extra = {}) {
      const model = await serve(steps);
      // The agent's checkpoint store goes to the test's own state directory (beside the workspace), not the user's.
      const state = join(workspace().base, 'state');
      const io = captureIO(workspace().root, { BOUGH_MODEL_RETRY_DELAY_MS: '1', XDG_STATE_HOME: state, ...env }, extra);
      const code = await main(['agent', ...argv, '--base-url', model.url, '--model', 'fake'], io, never);
      return { code, out: io.out(), err: io.err(), requests: model.requests };
    },
  };
}
