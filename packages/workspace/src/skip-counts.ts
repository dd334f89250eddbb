import type { WalkSummary } from './walk.js';

/** The reasons a file under a searched directory can be left out; tools report them as `skipped` by reason. */
export interface SkipCounts {
  protected: number;
  ignored: number;
  links: number;
  special: number;
  unreadable: number;
  too_large: number;
}

/** A fresh set of zeroed skip counters. */
export function emptySkipCounts(): SkipCounts {
  return { protected: 0, ignored: 0, links: 0, special: 0, unreadable: 0, too_large: 0 };
}

/** The skip reason for a file the gate refused to hand over, from the refusal's error code. */
export function skipReasonOf(errorCode: string | undefined): Exclude<keyof SkipCounts, 'ignored'> {
  if (errorCode === 'too_large') return 'too_large';
  if (errorCode === 'protected_path') return 'protected';
  if (errorCode === 'symlink_rejected' || errorCode === 'outside_workspace') return 'links';
  if (errorCode === 'special_file') return 'special';
  return 'unreadable';
}

/** Adds what a walk left out (protected, ignored, links, special, unreadable) to a tool's skip counters. */
export function addWalkSkips(
  counts: SkipCounts,
  skipped: Pick<WalkSummary['skipped'], 'protected' | 'ignored' | 'links' | 'special' | 'unreadable'>,
): void {
  counts.protected += skipped.protected;
  counts.ignored += skipped.ignored;
  counts.links += skipped.links;
  counts.special += skipped.special;
  counts.unreadable += skipped.unreadable;
}
