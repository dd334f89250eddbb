import { symlinkSync } from 'node:fs';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { DEFAULT_PROTECTED, type ProtectedNamePolicy } from '@bough/workspace';
import { getLibFiles, ts } from '@ts-morph/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleCodeNav } from './handle-nav.js';
import type { ScriptState } from './internal/ts-nav-item.js';
import { createProjectService } from './internal/ts-service-host.js';

// An ordinary file that imports a protected one must not let the language service read it: to TypeScript the protected
// file is absent, so no definition, reference or signature line comes from it. SECURITY.md, guarantee 1.
const policy: ProtectedNamePolicy = { ...DEFAULT_PROTECTED, names: [...DEFAULT_PROTECTED.names, '.bough'] };
const OPEN: ProtectedNamePolicy = { names: [], patterns: [], allow: [] };

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({
    '.env.ts': "export function leak() { return 'TOKEN-ENV-1111'; }\n",
    '.env.local.ts': "export function leakLocal() { return 'TOKEN-LOCAL-2222'; }\n",
    '.bough/state.ts': "export function leakDir() { return 'TOKEN-DIR-3333'; }\n",
    'main.ts': [
      "import { leak } from './.env';",
      "import { leakLocal } from './.env.local';",
      "import { leakDir } from './.bough/state';",
      "import type { Hidden } from './.env';",
      'leak();',
      'leakLocal();',
      'leakDir();',
      "export const hidden: import('./.bough/state').Missing | Hidden = null as never;",
      '',
    ].join('\n'),
  });
});
afterEach(() => ws.cleanup());

const nav = (action: 'find_definition' | 'find_references', symbol: string, protectedNames = policy) =>
  handleCodeNav({ action, symbol, path: '' }, { workspaceRoot: ws.root, protectedNames });

describe('code_nav treats protected files reached through imports as absent', () => {
  it('definitions and references of names a protected file declares come only from ordinary files', async () => {
    for (const symbol of ['leak', 'leakLocal', 'leakDir']) {
      // With nothing protected the declaration in the imported file is found: the case can leak.
      const open = await nav('find_definition', symbol, OPEN);
      expect(JSON.stringify(open), symbol).toMatch(/TOKEN-/);
      for (const action of ['find_definition', 'find_references'] as const) {
        const r = await nav(action, symbol);
        expect(r, `${action} ${symbol}`).toMatchObject({ success: true });
        expect(JSON.stringify(r)).not.toMatch(/TOKEN-/);
        const files = (r as { items: { file: string }[] }).items.map((item) => item.file);
        expect(
          files.every((file) => file === 'main.ts'),
          `${action} ${symbol}: ${files}`,
        ).toBe(true);
      }
    }
  });

  it('a link with an ordinary name to a protected file adds nothing', async () => {
    symlinkSync(ws.path('.env.ts'), ws.path('plain.ts'));
    ws.write('use-plain.ts', "import { leak } from './plain';\nleak();\n");
    for (const action of ['find_definition', 'find_references'] as const) {
      const r = await nav(action, 'leak');
      expect(JSON.stringify(r)).not.toMatch(/TOKEN-/);
      const files = (r as { items: { file: string }[] }).items.map((item) => item.file);
      expect(files.every((file) => file === 'main.ts' || file === 'use-plain.ts')).toBe(true);
    }
  });
});

describe('the language service host and the compiler library inside the workspace', () => {
  // A project that installs the navigator has the compiler's library directory under its own node_modules. The
  // library comes from the compiler module's own texts, so whatever lies at those paths (a protected name, a link
  // out, a planted lib.d.ts) is never read.
  it('never reads a library file from the workspace, protected, linked or ordinary', async () => {
    ws.write('lib/lib.d.ts', '/// <reference path="./.env.d.ts" />\n/// <reference path="./out.d.ts" />\n');
    ws.write('lib/.env.d.ts', "declare const fromLib: 'TOKEN-LIB-4444';\n");
    symlinkSync(`${ws.outside}/secret.txt`, ws.path('lib/out.d.ts'));
    const inside = { ...ts, getDefaultLibFilePath: () => ws.path('lib/lib.d.ts') } as typeof ts;
    const main = ws.path('main.ts');
    const files = new Map<string, ScriptState>([
      [main, { version: 1, text: 'export const x = fromLib;\n', stamp: '', relative: 'main.ts' }],
    ]);
    const { service } = createProjectService(
      inside,
      ws.root,
      { files, fileNames: () => [main], projectVersion: () => 1, options: () => ({ noEmit: true }) },
      getLibFiles(),
    );
    const program = service.getProgram();
    // lib.d.ts is the compiler's own text (it names no file under lib/); what the planted one references is never read.
    expect(program?.getSourceFile(ws.path('lib/lib.d.ts'))?.text).toContain('/// <reference lib="es5" />');
    expect(program?.getSourceFile(ws.path('lib/.env.d.ts'))).toBeUndefined();
    expect(program?.getSourceFile(ws.path('lib/out.d.ts'))).toBeUndefined();
    const texts = program?.getSourceFiles().map((source) => source.text) ?? [];
    expect(texts.join('\n')).not.toMatch(/TOKEN-|OUTSIDE-SECRET/);
    expect(JSON.stringify(service.getQuickInfoAtPosition(main, 'export const x = f'.length) ?? null)).not.toMatch(
      /TOKEN-/,
    );
  });
});
