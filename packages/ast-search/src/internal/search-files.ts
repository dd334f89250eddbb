import type { NapiConfig, SgNode, SgRoot } from '@ast-grep/napi';
import type { Napi } from '@branchkit/grammars';
import type { Workspace } from '@branchkit/workspace';
import type { AstSearchLimits } from '../limits.js';
import type { AstSearchMatch } from '../schema.js';
import { type CandidateFile, readSource, type SkipCounts } from './source-files.js';

/** The result of searching a list of files. */
export interface SearchOutcome {
  matches: AstSearchMatch[];
  total: number;
  filesSearched: number;
  stoppedEarly: boolean;
  aborted: boolean;
}

function clip(text: string, max: number): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `${trimmed.slice(0, Math.max(0, max - 1))}…` : trimmed;
}

/** All distinct nodes any matcher finds in one tree, in source order. */
function findAll(root: SgNode, matchers: readonly (string | NapiConfig)[]): SgNode[] {
  if (matchers.length === 1) return root.findAll(matchers[0]!);
  const seen = new Map<string, SgNode>();
  for (const matcher of matchers) {
    for (const node of root.findAll(matcher)) {
      const { start, end } = node.range();
      seen.set(`${start.index}:${end.index}`, node);
    }
  }
  return [...seen.values()].sort((a, b) => a.range().start.index - b.range().start.index);
}

type Parsed = { relative: string; root: SgRoot } | { skip: keyof SkipCounts };

async function readAndParse(
  napi: Napi,
  lang: string,
  file: CandidateFile,
  workspace: Workspace,
  maxBytes: number,
): Promise<Parsed> {
  const source = await readSource(workspace, file.path, maxBytes);
  if (!source.ok) return { skip: source.reason };
  try {
    return { relative: source.relative, root: await napi.parseAsync(lang, source.text) };
  } catch {
    return { skip: 'unreadable' };
  }
}

/**
 * Reads each file through the workspace and parses it on the native thread pool, keeping up to `parseConcurrency`
 * files in flight while the main thread matches the trees already parsed, in file order. Every match is counted; only
 * the first `maxResults` are kept, and only those have their text extracted. The time budget is checked between files.
 */
export async function searchFiles(
  napi: Napi,
  lang: string,
  matchers: readonly (string | NapiConfig)[],
  files: readonly CandidateFile[],
  workspace: Workspace,
  skips: SkipCounts,
  options: { limits: AstSearchLimits; maxResults: number; signal?: AbortSignal },
): Promise<SearchOutcome> {
  const { limits, maxResults, signal } = options;
  const deadline = Date.now() + limits.timeBudgetMs;
  const outcome: SearchOutcome = { matches: [], total: 0, filesSearched: 0, stoppedEarly: false, aborted: false };
  const inFlight: Promise<Parsed>[] = [];
  let started = 0;
  const fill = () => {
    while (started < files.length && inFlight.length < limits.parseConcurrency) {
      const parsing = readAndParse(napi, lang, files[started++]!, workspace, limits.maxFileBytes);
      // Settled later in order; a rejection here must not surface as an unhandled one meanwhile.
      parsing.catch(() => undefined);
      inFlight.push(parsing);
    }
  };
  for (let index = 0; index < files.length; index++) {
    if (signal?.aborted) {
      outcome.aborted = true;
      return outcome;
    }
    if (Date.now() >= deadline) {
      outcome.stoppedEarly = true;
      skips.not_searched += files.length - index;
      return outcome;
    }
    fill();
    const item = await inFlight.shift()!;
    // Keep the pool busy while this tree is matched on the main thread.
    fill();
    if ('skip' in item) {
      skips[item.skip]++;
      continue;
    }
    outcome.filesSearched++;
    for (const node of findAll(item.root.root(), matchers)) {
      outcome.total++;
      if (outcome.matches.length >= maxResults) continue;
      const range = node.range();
      outcome.matches.push({
        file: item.relative,
        line: range.start.line + 1,
        col: range.start.column,
        end_line: range.end.line + 1,
        text: clip(node.text(), limits.maxMatchTextChars),
      });
    }
  }
  return outcome;
}
