import { expect } from 'vitest';

/** Asserts that a tool response succeeded and narrows it to the success arm (the whole response is in the message). */
export function expectSuccess<R extends { readonly success: boolean }>(response: R): Extract<R, { success: true }> {
  if (response.success !== true) throw new Error(`expected success, got ${JSON.stringify(response)}`);
  return response as Extract<R, { success: true }>;
}

/** Asserts that a tool response is a typed failure with exactly this `error_code`. */
export function expectFailure<R extends { readonly success: boolean }>(response: R, code: string): void {
  expect(response).toMatchObject({ success: false, error_code: code });
}
