import { type LspFailure, lspFailure } from '../errors.js';
import type { LspLimits } from '../limits.js';
import type { LanguageServerConfig } from '../servers.js';
import { LanguageSession } from './language-session.js';
import type { SpawnSettings } from './server-process.js';

interface Slot {
  session?: LanguageSession;
  starting?: Promise<LanguageSession | LspFailure>;
  idleTimer?: NodeJS.Timeout;
  /** When each crash of this server happened, for the restart budget. */
  crashes: number[];
}

/**
 * The servers of one workspace root, one per server id: started on first use (concurrent callers share the start),
 * shut down after `idleShutdownMs` without use, restarted after a crash while the budget allows, and all ended by
 * {@link SessionPool.dispose}.
 */
export class SessionPool {
  readonly #slots = new Map<string, Slot>();
  readonly #settings: SpawnSettings;
  readonly #limits: LspLimits;
  #disposed = false;
  readonly #onExit = () => {
    for (const slot of this.#slots.values()) slot.session?.killNow();
  };

  constructor(settings: SpawnSettings, limits: LspLimits) {
    this.#settings = settings;
    this.#limits = limits;
  }

  /** The running session of a server, starting it when needed. */
  async session(server: LanguageServerConfig): Promise<LanguageSession | LspFailure> {
    if (this.#disposed) return lspFailure('disposed', 'This language-server client was disposed; create a new one.');
    const slot = this.#slots.get(server.id) ?? { crashes: [] };
    this.#slots.set(server.id, slot);
    if (slot.session?.alive) {
      this.#arm(server.id, slot);
      return slot.session;
    }
    if (slot.starting) return slot.starting;
    if (slot.session?.crashed) {
      const now = Date.now();
      slot.crashes = [...slot.crashes.filter((at) => now - at < this.#limits.restartWindowMs), now];
      slot.session = undefined;
      if (slot.crashes.length > this.#limits.maxRestarts) {
        return lspFailure(
          'server_crashed',
          `The ${server.id} language server crashed ${slot.crashes.length} times within ${this.#limits.restartWindowMs} ms and is not restarted again; check its installation or configuration.`,
        );
      }
    }
    slot.starting = LanguageSession.start(server, this.#settings, this.#limits).then(async (started) => {
      slot.starting = undefined;
      if ('success' in started) return started;
      if (this.#disposed) {
        await started.shutdown();
        return lspFailure('disposed', 'This language-server client was disposed while the server started.');
      }
      slot.session = started;
      if (this.#running().length === 1) process.once('exit', this.#onExit);
      this.#arm(server.id, slot);
      return started;
    });
    return slot.starting;
  }

  /** Running sessions. */
  running(): LanguageSession[] {
    return this.#running();
  }

  #running(): LanguageSession[] {
    return [...this.#slots.values()].flatMap((slot) => (slot.session?.alive ? [slot.session] : []));
  }

  // (Re)starts the idle countdown of a server; the timer never keeps the Node process alive.
  #arm(id: string, slot: Slot): void {
    clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => void this.#idle(id, slot), this.#limits.idleShutdownMs);
    slot.idleTimer.unref();
  }

  async #idle(id: string, slot: Slot): Promise<void> {
    const session = slot.session;
    if (!session?.alive) return;
    const idleFor = Date.now() - session.lastUsed;
    if (idleFor < this.#limits.idleShutdownMs) {
      slot.idleTimer = setTimeout(() => void this.#idle(id, slot), this.#limits.idleShutdownMs - idleFor);
      slot.idleTimer.unref();
      return;
    }
    slot.session = undefined;
    await session.shutdown();
    if (this.#running().length === 0) process.removeListener('exit', this.#onExit);
  }

  /** Shuts every server down and waits until each process group is gone; later calls fail with `disposed`. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    const pending: Promise<unknown>[] = [];
    for (const slot of this.#slots.values()) {
      clearTimeout(slot.idleTimer);
      if (slot.starting) pending.push(slot.starting);
    }
    await Promise.all(pending);
    await Promise.all([...this.#slots.values()].map((slot) => slot.session?.shutdown()));
    this.#slots.clear();
    process.removeListener('exit', this.#onExit);
  }
}
