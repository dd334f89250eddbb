import { expect, it } from 'vitest';
import { Turns } from './turns.js';

/** Whether a callback queued with setImmediate ran while `pace` was awaited. */
async function othersRan(turns: Turns): Promise<boolean> {
  let ran = false;
  setImmediate(() => {
    ran = true;
  });
  await turns.pace();
  return ran;
}

it('lets the event loop run once a turn is over, and not before', async () => {
  expect(await othersRan(new Turns(Number.POSITIVE_INFINITY))).toBe(false);
  expect(await othersRan(new Turns(0))).toBe(true);
});
