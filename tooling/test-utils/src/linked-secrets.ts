// A workspace whose `secrets/` is also reachable through a link, and a link rule that refuses it: the fixture of each
// tool package's test of its `linkRule` option (the coding toolkit's table covers every tool and route together).
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { LinkRule } from '@bough/workspace';
import { afterEach, beforeEach, expect } from 'vitest';
import { makeWorkspace, type TempWorkspace } from './workspace.js';

/** What the files under `secrets/` hold; no answer through the link may show it. */
export const LINKED_CANARY = 'LINKED-SECRET-CANARY';

/** Refuses every real path under `secrets/`, as a permission policy's rule `secrets/**` would. */
export const denySecretsRule: LinkRule = (real) =>
  real === 'secrets' || real.startsWith('secrets/') ? 'which the test rule refuses' : undefined;

/**
 * A workspace with `secrets/s.py` and `secrets/deep/d.py` (each printing {@link LINKED_CANARY}), `src/a.py`, and the
 * link `pub` to `secrets`; `cleanup()` removes it.
 */
export function linkedSecretsWorkspace(): TempWorkspace {
  const source = `def leak():\n    print("${LINKED_CANARY}")\n`;
  const ws = makeWorkspace({ 'secrets/s.py': source, 'secrets/deep/d.py': source, 'src/a.py': 'print(1)\n' });
  symlinkSync(join(ws.root, 'secrets'), join(ws.root, 'pub'));
  return ws;
}

/** A fresh {@link linkedSecretsWorkspace} for each test of the file, removed after it; the getter gives the current one. */
export function useLinkedSecretsWorkspace(): () => TempWorkspace {
  let ws: TempWorkspace | undefined;
  beforeEach(() => {
    ws = linkedSecretsWorkspace();
  });
  afterEach(() => ws?.cleanup());
  return () => ws as TempWorkspace;
}

/** One call of the tool under test on `path` (with the rule when given); its answer as a plain record. */
export type LinkedCall = (path: string, linkRule?: LinkRule) => Promise<unknown>;

/**
 * Each of `paths` (every one reaching `secrets/` through the link `pub` or as an absolute path) is refused with
 * `denied` under {@link denySecretsRule}, showing nothing from there, and reaches the tool without the rule, so the
 * refusal is the rule's. `shows` says whether the tool's answer without the rule shows the canary.
 */
export async function expectLinkRuleBinds(ws: TempWorkspace, run: LinkedCall, paths: readonly string[], shows = true) {
  for (const path of paths.map((p) => p.replace('<root>', ws.root))) {
    const refused = await run(path, denySecretsRule);
    expect(refused, path).toMatchObject({ success: false, error_code: 'denied' });
    expect(JSON.stringify(refused)).not.toContain(LINKED_CANARY);
    const open = (await run(path)) as { error_code?: string };
    expect(open.error_code, path).not.toBe('denied');
    if (shows) expect(JSON.stringify(open), path).toContain(LINKED_CANARY);
  }
}
