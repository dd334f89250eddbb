import { randomUUID } from 'node:crypto';

// Ids only need to be unique, not unpredictable: a random per-process prefix plus a counter keeps the UUID layout
// and costs a fraction of a fresh randomUUID(), which matters when a clone renames 100,000 messages.
let prefix = randomUUID().slice(0, 24);
let counter = 0;

/** A UUID-shaped id, unique within this process and, through its random prefix, across processes. */
export function newId(): string {
  counter += 1;
  if (counter >= 0xffffffffffff) {
    prefix = randomUUID().slice(0, 24);
    counter = 1;
  }
  return prefix + counter.toString(16).padStart(12, '0');
}
