import { toolOutputSummary, toolOutputText } from '@bough/core';
import { describe, expect, it } from 'vitest';
import { commandModelText, commandSummary } from './render.js';

const bash = { toModelText: commandModelText, summarize: commandSummary };

describe('bash renders itself', () => {
  it('shows a command as its output and how it ended', () => {
    expect(toolOutputText(bash, { stdout: 'hi\n', stderr: '', return_code: 0, signal: null, timed_out: false })).toBe(
      'hi',
    );
    const failed = { stdout: '', stderr: 'boom\n', return_code: 2, signal: null, timed_out: false };
    expect(toolOutputText(bash, failed)).toBe('[stderr]\nboom\n[exit code 2]');
    expect(toolOutputText(bash, { stdout: '', stderr: '', return_code: 0, signal: null, timed_out: false })).toBe(
      '(no output)',
    );
    const late = { stdout: 'x', stderr: '', return_code: -1, signal: 'SIGKILL', timed_out: true, timeout_ms: 5 };
    expect(toolOutputText(bash, late)).toBe('x\n[timed out after 5 ms]');
  });

  it('summarises a command by its exit status over its first output lines', () => {
    const ran = { success: true, stdout: 'a\nb\n', stderr: '', return_code: 3, timed_out: true };
    expect(toolOutputSummary(bash, ran)).toEqual({ ok: true, headline: 'exit 3 (timed out)', details: ['a', 'b'] });
  });
});
