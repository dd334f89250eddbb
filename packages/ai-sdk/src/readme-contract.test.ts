// Keeps the README honest: it lists exactly the exported failure code table and the limits with their defaults.
import { CallErrorCode } from '@bough/core';
import { describeReadmeTables } from '@bough/test-utils';
import { expect, it } from 'vitest';
import { AI_SDK_ERROR_CODES } from './errors.js';
import { DEFAULT_AI_SDK_LIMITS } from './limits.js';

describeReadmeTables(import.meta.dirname, { codes: AI_SDK_ERROR_CODES, limits: DEFAULT_AI_SDK_LIMITS });

it("lists exactly the executor's codes, since every adapted call runs through it", () => {
  expect([...AI_SDK_ERROR_CODES].sort()).toEqual(Object.values(CallErrorCode).sort());
});
