export { branchWithCalls, echoTool } from './branch-fixtures.js';
export { type CapturedIO, captureIO } from './capture-io.js';
export { type ConformanceOptions, describeToolConformance } from './conformance.js';
export { makeDocx, makePdf, makePptx, makeZip } from './documents.js';
export {
  type ContractExchange,
  type ContractMessage,
  type ContractTeam,
  describeExchangeContract,
  takeAll,
  until,
} from './exchange-contract.js';
export { type AgentMain, type AgentRun, type FakeModelAgent, useFakeModelAgent } from './fake-model-agent.js';
export {
  completionBody,
  type FakeOpenAI,
  type FakeReply,
  type FakeRequest,
  type FakeStep,
  sseAnswer,
  startFakeOpenAI,
  wireToolCall,
} from './fake-openai.js';
export { countFileIo, type FileIoCounts, stopCountingFileIo } from './file-io.js';
export { GIT_ID, gitSync, initRepo } from './git.js';
export {
  denySecretsRule,
  expectLinkRuleBinds,
  LINKED_CANARY,
  type LinkedCall,
  linkedSecretsWorkspace,
  useLinkedSecretsWorkspace,
} from './linked-secrets.js';
export { startNatsServer, type TestNatsServer } from './nats-server.js';
export { NEAR_MISS_CASES, type NearMissCase } from './near-miss-corpus.js';
export {
  eventually,
  groupDisappears,
  groupExists,
  runningMembers,
  survivors,
  TEST_BASE_ENV,
} from './process-groups.js';
export {
  CLI_BIN,
  collect,
  exited,
  isRunning,
  processesIn,
  requireCliBuild,
  SLEEPER,
  SLEEPER_COMMAND,
  spawnCli,
  waitForFile,
} from './processes.js';
export { notInstalled } from './programs.js';
export {
  describeProtectedPolicy,
  PROTECTED_CANARY,
  PROTECTED_PATHS,
  type ProtectedPolicyOptions,
  protectedPolicyWith,
} from './protected-policy.js';
export {
  describeReadmeContract,
  documentedCodes,
  firstColumnNames,
  type ReadmeContractOptions,
  readmeCodeBlock,
  readmeSection,
  returnedCodes,
  runReadmeUsage,
} from './readme-contract.js';
export { gitBranches, useGitRepo } from './repo-fixture.js';
export { expectFailure, expectSuccess } from './results.js';
export { snapshotTree } from './snapshot.js';
export { makeWorkspace, sha256File, type TempWorkspace } from './workspace.js';
export {
  CANARY,
  type Fixture,
  type FixtureHooks,
  makeFixture,
  useFixture,
  WALK_FIXTURE_FILES,
} from './workspace-fixture.js';
