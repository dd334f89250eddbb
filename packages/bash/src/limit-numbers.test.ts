// The timeout numbers written out in prose (README rows, limit reasons) are the ones BASH_LIMITS holds, so a changed
// default cannot leave a stale "30 s" behind. The limits table itself is checked by readme-contract.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { BASH_LIMITS } from './limits.js';

const README = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
const { defaultTimeoutMs, maxTimeoutMs, jobWaitMaxMs } = BASH_LIMITS.defaults;
const seconds = (ms: number) => `${ms / 1000} s`;
/** The README's way of writing a count: thin groups of three separated by spaces (`30 000`). */
const spaced = (n: number) => n.toLocaleString('en-US').replaceAll(',', ' ');
const row = (start: string) => README.split('\n').find((line) => line.startsWith(start)) ?? '';

it('states the request timeout default and ceiling the limits hold', () => {
  expect(row('| `timeout` |')).toContain(`default ${defaultTimeoutMs}, max ${maxTimeoutMs};`);
});

it("states the jobs wait default as the command default, and jobWaitMaxMs' own row its value", () => {
  expect(row('| `{"action":"wait"')).toContain(`\`defaultTimeoutMs\` (${spaced(defaultTimeoutMs)})`);
  expect(jobWaitMaxMs).toBeLessThanOrEqual(maxTimeoutMs);
});

it('gives durations in the reasons (limits module and README table) as the values they explain', () => {
  expect(BASH_LIMITS.reasons.defaultTimeoutMs).toContain(`running ${seconds(defaultTimeoutMs)} `);
  expect(row('| `defaultTimeoutMs` |')).toContain(`after ${seconds(defaultTimeoutMs)} `);
  const durations = [...README.matchAll(/\b(\d+) s\b/g)].map((match) => Number(match[1]) * 1000);
  expect(durations.filter((ms) => ![defaultTimeoutMs, maxTimeoutMs, jobWaitMaxMs].includes(ms))).toEqual([]);
});
