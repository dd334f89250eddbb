import type { NatsExchangeLimits } from '../limits.js';

/** Subjects and stream names of one exchange; nothing of another exchange name matches them. */
export interface Namespace {
  readonly mailStream: string;
  readonly seenStream: string;
  readonly rosterStream: string;
  inbox(owner: string): string;
  seen(owner: string): string;
  roster(owner: string): string;
  readonly inboxes: string;
  readonly seens: string;
  readonly rosters: string;
  consumer(owner: string): string;
}

const NAME = /^[A-Za-z0-9_-]+$/;

/** A problem with an exchange name, or undefined when it is valid. */
export function checkName(name: string, limits: NatsExchangeLimits): string | undefined {
  if (name.length === 0 || name.length > limits.maxNameChars || !NAME.test(name)) {
    return `The exchange name ${JSON.stringify(name.slice(0, 80))} must be 1 to ${limits.maxNameChars} letters, digits, "_" or "-".`;
  }
  return undefined;
}

/** Throws for an owner id that cannot be used (empty or too long); any characters are fine, they are encoded. */
export function checkOwner(owner: string, limits: NatsExchangeLimits): void {
  if (owner.length === 0 || owner.length > limits.maxOwnerChars) {
    throw new RangeError(`An owner id must have 1 to ${limits.maxOwnerChars} characters.`);
  }
}

/** One subject token for an owner id: base64url, so dots, wildcards and spaces cannot escape the token. */
export function token(owner: string): string {
  return Buffer.from(owner, 'utf8').toString('base64url');
}

/** The owner id a token stands for. */
export function ownerOf(tokenText: string): string {
  return Buffer.from(tokenText, 'base64url').toString('utf8');
}

/** The subjects and streams of exchange `name` (already checked). */
export function namespace(name: string): Namespace {
  const root = `bough.${name}`;
  return {
    mailStream: `BOUGH_${name}_MAIL`,
    seenStream: `BOUGH_${name}_SEEN`,
    rosterStream: `BOUGH_${name}_ROSTER`,
    inbox: (owner) => `${root}.inbox.${token(owner)}`,
    seen: (owner) => `${root}.seen.${token(owner)}`,
    roster: (owner) => `${root}.roster.${token(owner)}`,
    inboxes: `${root}.inbox.*`,
    seens: `${root}.seen.*`,
    rosters: `${root}.roster.*`,
    consumer: (owner) => `inbox_${token(owner)}`,
  };
}
