import { type Exchange, ExchangeError } from '../exchange.js';

/** Branch id of a teammate: a roster name, or an owner id registered on the exchange; undefined when unknown. */
export async function resolveTarget(
  name: string,
  roster: Readonly<Record<string, string>>,
  exchange: Exchange,
): Promise<string | undefined> {
  if (Object.hasOwn(roster, name)) return roster[name];
  return (await exchange.has(name)) ? name : undefined;
}

/** The name to show for an owner id: its roster name, else the first characters of the id. */
export function displayName(id: string, roster: Readonly<Record<string, string>>, prefixChars: number): string {
  for (const [name, owner] of Object.entries(roster)) if (owner === id) return name;
  return id.slice(0, prefixChars);
}

/**
 * Registers (and holds) the sender on first use, so a clone can message without set-up (a lost race is not an error).
 * Returns true when this call added the owner.
 */
export async function ensureRegistered(exchange: Exchange, owner: string): Promise<boolean> {
  if (await exchange.holds(owner)) return false;
  try {
    await exchange.register(owner);
    return true;
  } catch (error) {
    if (!(error instanceof ExchangeError) || !(await exchange.holds(owner))) throw error;
    return false;
  }
}

/** Names from the roster, for error messages. */
export function knownNames(roster: Readonly<Record<string, string>>): string {
  const names = Object.keys(roster);
  return names.length > 0 ? names.join(', ') : '(the roster is empty)';
}
