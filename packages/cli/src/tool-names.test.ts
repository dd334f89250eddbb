import { DEFAULT_CODING_TOOLS } from '@bough/coding';
import { describe, expect, it } from 'vitest';
import { cliToolNames } from './toolset.js';

describe('cliToolNames: the one place the CLI decides that bash brings jobs', () => {
  it('adds jobs to a list with bash, once, and to nothing else', () => {
    expect(cliToolNames(['reader', 'bash'])).toEqual(['reader', 'bash', 'jobs']);
    expect(cliToolNames(['bash', 'jobs'])).toEqual(['bash', 'jobs']);
    expect(cliToolNames(['reader', 'editor'])).toEqual(['reader', 'editor']);
  });

  it('falls back to the given defaults, else the toolkit defaults, with jobs', () => {
    expect(cliToolNames(undefined, ['search', 'bash'])).toEqual(['search', 'bash', 'jobs']);
    expect(cliToolNames(undefined)).toEqual([...DEFAULT_CODING_TOOLS, 'jobs']);
  });
});
