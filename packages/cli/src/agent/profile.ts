import { type DialectProfile, dialectTools, PROFILE_NEEDS } from '@bough/coding';
import { Branch, type ChatModel, type Registrable, type ToolRegistry } from '@bough/core';
import { toolkitProvider } from '../toolset.js';

/** The toolkit options the agent builds with (what `toolkitProvider` takes). */
type ToolkitOptions = NonNullable<Parameters<typeof toolkitProvider>[1]>;

/** The tools an agent run offers its model, and the toolkit registry whose tools do the work. */
export interface AgentTools {
  /** What the agent's branch registers (and what a resumed session rebuilds its tools from). */
  readonly tools: Registrable;
  /** The registry holding `bash` and `jobs`, whose background jobs the watchdog follows. */
  readonly toolkit: (branch: Branch) => ToolRegistry;
  /** Ends what the toolkit started (background jobs, language servers); resolves once their processes are gone. */
  readonly dispose: () => Promise<void>;
}

/**
 * The tools of one agent run. `full` is the coding toolkit itself on the agent's branch. Any other profile serves
 * that family's tools (Claude's text editor and bash, OpenAI's apply_patch and shell, Gemini CLI's set) over a
 * toolkit of its own, which holds only the tools those need: every call still goes through the toolkit's guard,
 * policy and sandbox, and the read-before-edit evidence lives in that toolkit.
 */
export function agentTools(profile: DialectProfile, root: string, options: ToolkitOptions): AgentTools {
  if (profile === 'full') {
    const provider = toolkitProvider(root, options);
    return { tools: provider, toolkit: (branch) => branch.registry, dispose: () => provider.dispose() };
  }
  const provider = toolkitProvider(root, { ...options, tools: PROFILE_NEEDS[profile] });
  const inner = new Branch({ name: 'cli', workspaceRoot: root });
  inner.registerTools(provider);
  return {
    tools: dialectTools(profile, inner.registry),
    toolkit: () => inner.registry,
    dispose: () => provider.dispose(),
  };
}

/** A branch for a new run with the tools of `profile` registered. */
export function agentBranch(root: string, model: ChatModel, tools: AgentTools): Branch {
  const branch = new Branch({ name: 'cli', workspaceRoot: root, model });
  branch.registerTools(tools.tools);
  return branch;
}
