// Keeps the README honest: it lists exactly the exported failure code table and the limits with their defaults.
import { CallErrorCode } from '@bough/core';
import { describeReadmeContract } from '@bough/test-utils';
import { expect, it } from 'vitest';
import { AI_SDK_ERROR_CODES } from './errors.js';
import { DEFAULT_AI_SDK_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, DEFAULT_AI_SDK_LIMITS, { table: AI_SDK_ERROR_CODES, limitsTable: true });

it("lists exactly the executor's codes, since every adapted call runs through it", () => {
  expect([...AI_SDK_ERROR_CODES].sort()).toEqual(Object.values(CallErrorCode).sort());
});
