// Branches with real tool traffic, for tests of code that reads or curates a conversation.
import { Branch, defineTool } from '@bough/core';
import { z } from 'zod';

/** A trivial stateless tool so tests can produce real action_request/action_response pairs. */
export const echoTool = defineTool({
  name: 'echo',
  description: 'Returns the text it was given; used by tests to create tool traffic.',
  request: z.object({ text: z.string() }).strict(),
  handler: async ({ text }) => ({ success: true, text }),
});

/** A branch with a system message, a user turn and `calls` echo calls made through branch.act. */
export async function branchWithCalls(
  calls: number,
  options: ConstructorParameters<typeof Branch>[0] = {},
): Promise<Branch> {
  const branch = new Branch({ system: 'You are a test agent.', ...options });
  branch.registerTools(echoTool);
  branch.addMessage({ role: 'user', content: 'Please look around.' });
  for (let i = 0; i < calls; i += 1) {
    await branch.act({ name: 'echo', arguments: { text: `result ${i}` } });
  }
  return branch;
}
