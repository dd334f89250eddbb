import type { SgNode, SgRoot } from '@ast-grep/napi';
import type { Napi } from '@bough/grammars';
import type { Workspace } from '@bough/workspace';
import type { AstSearchLimits } from '../limits.js';
import {
  type AstParseCache,
  type CachedMatch,
  type CachedResult,
  type CachedSource,
  RESULTS_PER_FILE,
} from '../parse-cache.js';
import type { AstSearchMatch } from '../schema.js';
import { mayMatch, type PatternMatcher } from './compile-pattern.js';
import { type CandidateFile, type ReadKit, readKit, readSource, type SkipCounts } from './source-files.js';

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
function findAll(root: SgNode, matchers: readonly PatternMatcher[]): SgNode[] {
  if (matchers.length === 1) return root.findAll(matchers[0]!.matcher);
  const seen = new Map<string, SgNode>();
  for (const { matcher } of matchers) {
    for (const node of root.findAll(matcher)) {
      const { start, end } = node.range();
      seen.set(`${start.index}:${end.index}`, node);
    }
  }
  return [...seen.values()].sort((a, b) => a.range().start.index - b.range().start.index);
}

/** A file read and, when it can hold a match, parsed; or why it was not searched. */
type Parsed =
  | {
      relative: string;
      /** The text the tree was parsed from: match text is cut from it. */
      text: string;
      root: SgRoot | undefined;
      /** The file's cache entry as stored now (undefined without a cache), to remember this query's result in. */
      entry?: CachedSource;
      path?: string;
    }
  | { skip: keyof SkipCounts };

async function readAndParse(
  napi: Napi,
  lang: string,
  matchers: readonly PatternMatcher[],
  file: CandidateFile,
  workspace: Workspace,
  maxBytes: number,
  cache: AstParseCache | undefined,
  kit: ReadKit,
): Promise<Parsed> {
  const source = await readSource(workspace, file, maxBytes, lang, cache, kit);
  if (!source.ok) return { skip: source.reason };
  const { text, relative, path, stamp, hit } = source;
  // A file missing a word every match needs is searched by that check alone; parsing it could find nothing.
  if (!mayMatch(matchers, text)) {
    if (!hit) cache?.set(path, { stamp, lang, text, root: undefined });
    return { relative, text, root: undefined };
  }
  if (hit?.root) return { relative, text, root: hit.root, entry: hit, path };
  try {
    const root = await napi.parseAsync(lang, text);
    // Stored again with its tree (the cache re-counts the entry's size), so the next query skips the parse.
    const entry: CachedSource = { stamp, lang, text, root };
    cache?.set(path, entry);
    return { relative, text, root, ...(cache ? { entry, path } : {}) };
  } catch {
    return { skip: 'unreadable' };
  }
}

/**
 * What the query finds in one parsed file. An unchanged file that already answered this query (same language,
 * matchers and text cap) with enough matches kept is answered from the cache; otherwise the tree is matched, and the
 * result is remembered when a cache is in use. Match text is extracted only when `wanted` (the file can still be
 * among the first matches) or when it is going to be remembered.
 */
function resultOf(
  parsed: { text: string; root: SgRoot | undefined; entry?: CachedSource; path?: string },
  matchers: readonly PatternMatcher[],
  queryKey: string,
  maxResults: number,
  maxChars: number,
  cache: AstParseCache | undefined,
  wanted: boolean,
): CachedResult {
  const known = parsed.entry?.results?.get(queryKey);
  if (known && (known.matches.length === known.total || known.matches.length >= maxResults)) return known;
  const nodes = parsed.root ? findAll(parsed.root.root(), matchers) : [];
  const remember = cache !== undefined && parsed.entry !== undefined && parsed.path !== undefined;
  const matches: CachedMatch[] = [];
  if (wanted || remember) {
    for (const node of nodes.slice(0, maxResults)) {
      const range = node.range();
      matches.push({
        line: range.start.line + 1,
        col: range.start.column,
        end_line: range.end.line + 1,
        // The range's indices are UTF-16 offsets into the string that was parsed, so the match text is cut from it
        // here instead of asking the engine to copy it out of the tree (the whole node, however long, before clipping).
        text: clip(parsed.text.slice(range.start.index, range.end.index), maxChars),
      });
    }
  }
  const result: CachedResult = { total: nodes.length, matches };
  if (remember && parsed.entry && parsed.path) {
    const results = new Map(parsed.entry.results ?? []);
    results.delete(queryKey);
    results.set(queryKey, result);
    while (results.size > RESULTS_PER_FILE) results.delete(results.keys().next().value as string);
    const entry: CachedSource = { ...parsed.entry, results };
    cache.set(parsed.path, entry);
  }
  return result;
}

/** A kept match and where its file stands in the listing, so matches can be ordered by file whatever finished first. */
interface Kept {
  readonly fileIndex: number;
  readonly match: AstSearchMatch;
}

/**
 * The first `limit` matches in listing order among those offered so far. A match that falls outside can never come
 * back in, since later offers only add matches, so memory stays bounded by `limit` whatever the order files finish in.
 */
class FirstMatches {
  readonly #limit: number;
  readonly #kept: Kept[] = [];

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Whether a match of the file at `fileIndex` could still be among the first `limit`. */
  wants(fileIndex: number): boolean {
    return this.#kept.length < this.#limit || this.#kept[this.#kept.length - 1]!.fileIndex > fileIndex;
  }

  /** Adds one file's matches, already in source order. */
  offer(fileIndex: number, matches: readonly AstSearchMatch[]): void {
    if (matches.length === 0) return;
    let at = this.#kept.length;
    while (at > 0 && this.#kept[at - 1]!.fileIndex > fileIndex) at--;
    this.#kept.splice(at, 0, ...matches.map((match) => ({ fileIndex, match })));
    if (this.#kept.length > this.#limit) this.#kept.length = this.#limit;
  }

  /** The kept matches in listing order. */
  list(): AstSearchMatch[] {
    return this.#kept.map((kept) => kept.match);
  }
}

/**
 * Reads each file through the workspace and parses it on the native thread pool, largest files first so the longest
 * parse does not start last, keeping up to `parseConcurrency` files in flight. The main thread matches each tree as
 * soon as it is parsed, whichever file that is; the answer does not depend on that order: every match is counted, and
 * the matches returned are the first `maxResults` in listing order (only those have their text extracted). Files
 * that lack a word every match needs are not parsed. The time budget is checked as each file finishes.
 */
export async function searchFiles(
  napi: Napi,
  lang: string,
  matchers: readonly PatternMatcher[],
  files: readonly CandidateFile[],
  workspace: Workspace,
  skips: SkipCounts,
  options: { limits: AstSearchLimits; maxResults: number; signal?: AbortSignal; cache?: AstParseCache },
): Promise<SearchOutcome> {
  const { limits, maxResults, signal, cache } = options;
  const queryKey = JSON.stringify([lang, limits.maxMatchTextChars, matchers.map(({ matcher }) => matcher)]);
  const deadline = Date.now() + limits.timeBudgetMs;
  const outcome: SearchOutcome = { matches: [], total: 0, filesSearched: 0, stoppedEarly: false, aborted: false };
  const first = new FirstMatches(maxResults);
  // Largest first; files of equal (or unknown) size keep their listing order.
  const order = files.map((_, index) => index);
  order.sort((a, b) => (files[b]!.size ?? 0) - (files[a]!.size ?? 0) || a - b);

  const finished: { index: number; parsed: Parsed }[] = [];
  const kit = readKit(workspace);
  let wake: (() => void) | undefined;
  let next = 0;
  let inFlight = 0;
  const launch = () => {
    while (next < order.length && inFlight < limits.parseConcurrency) {
      const index = order[next++]!;
      inFlight++;
      readAndParse(napi, lang, matchers, files[index]!, workspace, limits.maxFileBytes, cache, kit)
        .catch((): Parsed => ({ skip: 'unreadable' }))
        .then((parsed) => {
          finished.push({ index, parsed });
          wake?.();
        });
    }
  };

  // A cancelled call returns without waiting for the parse in progress.
  const onAbort = () => wake?.();
  signal?.addEventListener('abort', onAbort, { once: true });
  let done = 0;
  try {
    while (done < files.length) {
      if (signal?.aborted) {
        outcome.aborted = true;
        break;
      }
      if (Date.now() >= deadline) {
        // Files still parsing finish in the background; their results are dropped with the rest.
        outcome.stoppedEarly = true;
        skips.not_searched += files.length - done;
        break;
      }
      launch();
      if (finished.length === 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
        continue;
      }
      const { index, parsed } = finished.shift()!;
      inFlight--;
      done++;
      // Keep the pool busy while this tree is matched on the main thread.
      launch();
      if ('skip' in parsed) {
        skips[parsed.skip]++;
        continue;
      }
      outcome.filesSearched++;
      if (!parsed.root) continue;
      const result = resultOf(
        parsed,
        matchers,
        queryKey,
        maxResults,
        limits.maxMatchTextChars,
        cache,
        first.wants(index),
      );
      outcome.total += result.total;
      if (result.matches.length === 0 || !first.wants(index)) continue;
      first.offer(
        index,
        result.matches.slice(0, maxResults).map((match) => ({ file: parsed.relative, ...match })),
      );
    }
  } finally {
    // Held directories are released however the loop ends; reads still in flight then find the set closed.
    signal?.removeEventListener('abort', onAbort);
    kit.dirs.close();
  }
  outcome.matches = first.list();
  return outcome;
}
