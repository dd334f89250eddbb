import type { BenchSuite } from '../harness.js';
import { checkpointsSuite } from './checkpoints.js';
import { codeSuite } from './code.js';
import { contextSuite } from './context.js';
import { coreSuite } from './core.js';
import { editsSuite } from './edits.js';
import { jobsSuite } from './jobs.js';
import { lspSuite } from './lsp.js';
import { mcpSuite } from './mcp.js';
import { messengerNatsSuite } from './messenger-nats.js';
import { policySuite } from './policy.js';
import { processSuite } from './process.js';
import { readerSuite } from './reader.js';
import { replaySuite } from './replay.js';
import { searchSuite } from './search.js';
import { stallSuite } from './stall.js';
import { toolListsSuite } from './tool-lists.js';

/** Every suite `pnpm bench` runs, in order. */
export const suites: BenchSuite[] = [
  coreSuite,
  processSuite,
  readerSuite,
  policySuite,
  searchSuite,
  codeSuite,
  contextSuite,
  mcpSuite,
  toolListsSuite,
  messengerNatsSuite,
  jobsSuite,
  editsSuite,
  lspSuite,
  replaySuite,
  checkpointsSuite,
  stallSuite,
];
