import { describe, expect, it } from 'vitest';
import { addWalkSkips, emptySkipCounts, skipReasonOf } from './skip-counts.js';

describe('skip counts', () => {
  it('maps each refusal code to the reason tools report', () => {
    expect(skipReasonOf('too_large')).toBe('too_large');
    expect(skipReasonOf('protected_path')).toBe('protected');
    expect(skipReasonOf('symlink_rejected')).toBe('links');
    expect(skipReasonOf('outside_workspace')).toBe('links');
    expect(skipReasonOf('special_file')).toBe('special');
    expect(skipReasonOf('io_error')).toBe('unreadable');
    expect(skipReasonOf(undefined)).toBe('unreadable');
  });

  it('adds a walk summary to fresh counters', () => {
    const counts = emptySkipCounts();
    addWalkSkips(counts, { protected: 1, ignored: 2, links: 3, special: 4, unreadable: 5 });
    addWalkSkips(counts, { protected: 1, ignored: 0, links: 0, special: 0, unreadable: 0 });
    expect(counts).toEqual({ protected: 2, ignored: 2, links: 3, special: 4, unreadable: 5, too_large: 0 });
  });
});
