import { activeTokenCount } from '@bough/context';
import { Branch } from '@bough/core';
import { describe, expect, it } from 'vitest';
import { NudgeEngine } from './nudge-engine.js';
import { defaultNudgeRules } from './nudge-rules.js';
import type { NudgeRule } from './nudge-types.js';

function branchWithTokens(words: number): Branch {
  const branch = new Branch({ system: 'sys' });
  if (words > 0) branch.addMessage({ role: 'user', content: 'word '.repeat(words) });
  return branch;
}

const rule = (id: string, extra: Partial<NudgeRule> = {}): NudgeRule => ({
  id,
  condition: () => true,
  message: id,
  ...extra,
});

describe('NudgeEngine', () => {
  it('applies always, once and cooldown policies', () => {
    const engine = new NudgeEngine(branchWithTokens(0), {
      rules: [rule('a'), rule('o', { policy: 'once' }), rule('c', { policy: { cooldown: 2 } })],
    });
    expect(engine.evaluate()).toBe('a o c');
    expect(engine.evaluate()).toBe('a');
    expect(engine.evaluate()).toBe('a c');
    expect(engine.evaluate()).toBe('a');
  });

  it('orders by priority (stable) and keeps the first note even over the cap', () => {
    const long = 'x '.repeat(400);
    const engine = new NudgeEngine(branchWithTokens(0), {
      maxTokens: 10,
      rules: [rule('low', { priority: 1 }), rule('big', { priority: 9, message: long }), rule('tie', { priority: 1 })],
    });
    expect(engine.evaluate()).toBe(long.trim());
    const small = new NudgeEngine(branchWithTokens(0), {
      maxTokens: 100,
      rules: [rule('low', { priority: 1 }), rule('high', { priority: 5 }), rule('tie', { priority: 1 })],
    });
    expect(small.evaluate()).toBe('high low tie');
  });

  it('skips a rule that throws and tells onRuleError, without changing other notes', () => {
    const errors: string[] = [];
    const engine = new NudgeEngine(branchWithTokens(0), {
      onRuleError: (id) => errors.push(id),
      rules: [
        rule('bad', {
          condition: () => {
            throw new Error('broken');
          },
        }),
        rule('bad_message', {
          message: () => {
            throw new Error('x');
          },
        }),
        rule('good'),
      ],
    });
    expect(engine.evaluate()).toBe('good');
    expect(errors).toEqual(['bad', 'bad_message']);
  });

  it('uses the thresholds and context window given to the constructor', () => {
    const branch = branchWithTokens(500);
    const used = activeTokenCount(branch);
    const warn = new NudgeEngine(branch, { contextWindow: used * 2, threshold: 0.4, criticalThreshold: 0.95 });
    expect(warn.budget()).toMatchObject({ limit: used * 2, warning: true, critical: false });
    expect(warn.settings.threshold).toBe(0.4);
    const calm = new NudgeEngine(branch, { contextWindow: used * 2, threshold: 0.6 });
    expect(calm.budget().warning).toBe(false);
    const critical = new NudgeEngine(branch, { contextWindow: used, criticalThreshold: 0.9 });
    expect(critical.budget().critical).toBe(true);
  });
  it('checks its thresholds by the rules of the coding limits, naming the limit', () => {
    const branch = new Branch({ system: 'sys' });
    expect(() => new NudgeEngine(branch, { threshold: -0.5 })).toThrow(/nudgeThreshold/);
    expect(() => new NudgeEngine(branch, { ringSize: 2.5 })).toThrow(/nudgeRingSize/);
    expect(() => new NudgeEngine(branch, { contextWindow: Number.NaN })).toThrow(/contextWindow/);
    expect(new NudgeEngine(branch, { threshold: 0.5 }).settings.threshold).toBe(0.5);
  });
});

describe('default nudge rules', () => {
  it('always reports status with counts', () => {
    const engine = new NudgeEngine(branchWithTokens(10), { contextWindow: 100_000 });
    expect(engine.evaluate({ filesTracked: 2 })).toMatch(
      /^\[context \d+\/100k tokens \(0%\), 2 messages, 2 files tracked\]$/,
    );
  });

  it('warns, goes critical and gives the guidance once', () => {
    const branch = branchWithTokens(1000);
    const used = activeTokenCount(branch);
    const warning = new NudgeEngine(branch, { contextWindow: Math.ceil(used / 0.75) });
    const first = warning.evaluate() as string;
    expect(first).toContain('Tip: you can manage your own context');
    expect(first).toContain('filling up');
    expect(warning.evaluate()).not.toContain('Tip:');
    const critical = new NudgeEngine(branch, { contextWindow: used });
    const note = critical.evaluate() as string;
    expect(note).toContain('nearly full');
    expect(note).not.toContain('filling up');
  });

  it('fires the bash failure streak after three failures, then cools down', () => {
    const engine = new NudgeEngine(branchWithTokens(0), { rules: defaultNudgeRules({ streakCooldown: 10 }) });
    engine.recordCall('bash', '', false);
    engine.recordCall('bash', '', false);
    expect(engine.evaluate()).not.toContain('in a row failed');
    engine.recordCall('bash', '', false);
    expect(engine.evaluate()).toContain('3 bash calls in a row failed');
    engine.recordCall('bash', '', false);
    expect(engine.evaluate()).not.toContain('in a row failed');
    engine.recordCall('bash', '', true);
    engine.recordCall('reader', 'read', false);
    expect(engine.evaluate()).not.toContain('in a row failed');
  });
});
