import type { Touches } from '@bough/core';
import type { BashRequest } from './schema.js';

/**
 * What a command touches: it runs in `cwd` (the root when omitted), and a command may reach anything in the
 * workspace, so it also touches the workspace as a whole. What the program itself opens cannot be read from the
 * request; the OS sandbox is what confines it.
 */
export function bashTouches(request: BashRequest): Touches {
  return { cwd: request.cwd ?? '.', workspace: true };
}
