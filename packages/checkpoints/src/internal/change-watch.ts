import { type FSWatcher, lstatSync, readdirSync, readFileSync, statfsSync, statSync, watch } from 'node:fs';
import { join } from 'node:path';

// Our own code on `node:fs.watch` rather than a watcher library: those debounce, poll or report paths late, while this
// needs one bit with an ordering guarantee ("nothing changed since the last status check") and must give up — fall
// back to the status check — on anything it cannot vouch for. Linux only: inotify queues an event in the writer's own
// system call, so once the event loop has polled, every earlier change has been seen; other platforms report late.

/** File systems where another machine can change files without a local event (NFS, SMB/CIFS, FUSE, 9p, Ceph, AFS). */
const REMOTE = new Set([0x6969, 0x517b, 0xff534d42, 0xfe534d42, 0x65735546, 0x01021997, 0x00c36400, 0x5346414f]);

function remote(root: string): boolean {
  try {
    return REMOTE.has(statfsSync(root).type);
  } catch {
    return true;
  }
}

/** Paths a narrowed status check names at most; past it the whole tree is checked. */
const MAX_TOUCHED = 1_000;

/**
 * Bytes of path names a narrowed status check puts on one git command line at most; past it the whole tree is checked.
 * Well under the kernel's argument limit (`ARG_MAX`, 2 MiB or more on Linux), which deep paths could otherwise reach.
 */
export const MAX_TOUCHED_BYTES = 64 * 1024;

/** Whether `paths`, one argument each, fit the narrowed check's byte budget. */
export function fitsCommandLine(paths: readonly string[]): boolean {
  let bytes = 0;
  for (const path of paths) {
    bytes += Buffer.byteLength(path) + 1;
    if (bytes > MAX_TOUCHED_BYTES) return false;
  }
  return true;
}

/**
 * Whether a folder lies on another file system than the workspace root (a mount inside it: NFS, sshfs, a shared VM
 * folder, a tmpfs): changes made there through another mount or host raise no local event, so the watch gives up.
 */
export function foreignMount(rootDev: number | bigint | undefined, dirDev: number | bigint): boolean {
  return rootDev === undefined || rootDev !== dirDev;
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((item) => b.has(item));
}

/**
 * Events between two checks past which the watch stops vouching (a full check, watchers set up again): the kernel drops
 * events once its queue (`max_queued_events`) is full and Node does not report that, so before our own events could
 * fill it, half-way there, they are no longer trusted.
 */
function overflowGuard(): number {
  try {
    const max = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8'));
    return Number.isSafeInteger(max) && max > 1 ? Math.floor(max / 2) : 8_192;
  } catch {
    return 8_192;
  }
}

function isDir(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

/** Two turns of the event loop, the second after a poll: every event queued before the call has been handled. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

// A store that is no longer reachable closes its watchers (their callbacks hold the watch only weakly).
const closer = new FinalizationRegistry<Map<string, FSWatcher>>((watchers) => closeAll(watchers));

function closeAll(watchers: Map<string, FSWatcher>): void {
  for (const w of watchers.values()) w.close();
  watchers.clear();
}

/**
 * Tells whether anything in the workspace changed since the last status check, so a snapshot of an unchanged tree —
 * and the "before" of a call when nothing ran since the last one — needs no status check at all. Every directory git
 * would look into is watched (ignored ones and `.git` are not); any event at all, even on a file that is not stored,
 * counts as a change. A new folder or a `.gitignore` change sets the watchers up again before the next status check.
 */
export class ChangeWatch {
  readonly #root: string;
  /** The root's file system (`dev`); every watched folder must be on it. */
  readonly #dev: number | undefined;
  readonly #maxDirs: number;
  readonly #watchers = new Map<string, FSWatcher>();
  #off: boolean;
  #ready = false;
  #used = false;
  #stale = false;
  #dirty = true;
  #events = 0;
  readonly #guard = overflowGuard();
  /** Workspace paths named by the events since the last `take`; undefined when some event named none (or too many). */
  #touched: Set<string> | undefined = new Set();
  /** Paths named by create, delete and move events since the last `take` (a new folder among them is looked for there). */
  #renamed: Set<string> | undefined = new Set();
  /** The checkpoint the workspace matched when the watch was last armed; undefined when not known. */
  #head: string | undefined;

  /** `maxDirs` 0 turns the watch off; so do other platforms than Linux and remote file systems. */
  constructor(root: string, maxDirs: number) {
    this.#root = root;
    this.#maxDirs = maxDirs;
    this.#dev = statSync(root, { throwIfNoEntry: false })?.dev;
    this.#off = maxDirs === 0 || process.platform !== 'linux' || remote(root);
    closer.register(this, this.#watchers);
  }

  /**
   * Called right before a status check, and only there: what changed since the capture that left the store at `head`
   * (`[]`: nothing; paths: nothing else — every event named a path; undefined: not known, check everything), and from
   * here on every change counts again. Sets the watchers up the first time (and after a new folder or a `.gitignore`
   * change) before the check runs; `ignored` names the folders git never looks into (`dir/`).
   */
  async take(head: string | undefined, ignored: () => Promise<ReadonlySet<string>>): Promise<string[] | undefined> {
    if (this.#off) return undefined;
    const known = this.#ready && head !== undefined && head === this.#head;
    // Every event queued before now is handled, then the state is read and reset in one turn: nothing slips between.
    await settle();
    // A new folder (created or moved in) changes what must be watched: the watchers are set up again below. Looked
    // for here, once per path, rather than in every event of a write-heavy call.
    const renamed = this.#renamed;
    this.#renamed = new Set();
    if (renamed === undefined || [...renamed].some((path) => isDir(join(this.#root, path)))) this.#stale = true;
    let scope: string[] | undefined;
    // Dirty with no path named (only `.git` events, say a nested repository made) is not "nothing": a full check.
    if (known && !this.#stale && !this.#off) scope = this.#dirty ? this.#touched && [...this.#touched] : [];
    if (scope !== undefined && this.#dirty && (scope.length === 0 || !fitsCommandLine(scope))) scope = undefined;
    this.#dirty = false;
    this.#events = 0;
    this.#touched = new Set();
    if (scope?.length !== 0) this.#head = undefined;
    if (!this.#used) {
      // A process that checks once (a CLI command) never needs the watch: it is set up from the second check on.
      this.#used = true;
      return undefined;
    }
    if (!this.#ready || this.#stale) {
      // Set up after the reset and before the status check: a change made meanwhile is evented or seen by the check.
      closeAll(this.#watchers);
      this.#stale = false;
      const used = await ignored();
      this.#ready = this.#add('', used);
      // A `.gitignore` change while that listing ran had no watcher to see it, so a folder it stopped ignoring could
      // stay unwatched. Listed again with the watchers up (a change from now on is evented): if the answer moved, the
      // next check sets the watchers up again.
      if (this.#ready && !sameSet(used, await ignored())) this.#stale = true;
      scope = undefined;
    }
    return this.#off ? undefined : scope;
  }

  /** After a capture that left the store at `head`, matching the workspace as it was when the watch was armed. */
  matched(head: string): void {
    this.#head = head;
  }

  /** Watches `rel` and every folder under it; false (and the watch off) past `maxDirs` or when watching fails. */
  #add(rel: string, ignored: ReadonlySet<string>): boolean {
    const pending = [rel];
    while (pending.length > 0) {
      const dir = pending.pop()!;
      if (this.#watchers.size >= this.#maxDirs) return this.#stop();
      const abs = dir === '' ? this.#root : join(this.#root, dir);
      try {
        if (foreignMount(this.#dev, (dir === '' ? statSync(abs) : lstatSync(abs)).dev)) return this.#stop();
        const self = new WeakRef(this);
        const watcher = watch(abs, { persistent: false }, (event, name) => ChangeWatch.#seen(self, dir, event, name));
        watcher.on('error', () => ChangeWatch.#seen(self, dir, 'error', null));
        this.#watchers.get(dir)?.close();
        this.#watchers.set(dir, watcher);
        for (const entry of readdirSync(abs, { withFileTypes: true })) {
          if (!entry.isDirectory() || entry.name === '.git') continue;
          const child = dir === '' ? entry.name : `${dir}/${entry.name}`;
          if (!ignored.has(`${child}/`)) pending.push(child);
        }
      } catch (error) {
        // A folder removed meanwhile is a change like any other; anything else (no watches left) ends the watch.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return this.#stop();
        this.#dirty = true;
        this.#touched = undefined;
      }
    }
    return true;
  }

  static #seen(self: WeakRef<ChangeWatch>, dir: string, event: string, name: string | Buffer | null): void {
    const watch = self.deref();
    if (watch === undefined) return;
    if (event === 'error') watch.#stop();
    else watch.#event(dir, event, name);
  }

  #event(dir: string, event: string, name: string | Buffer | null): void {
    this.#dirty = true;
    if (++this.#events >= this.#guard) this.#stale = true;
    if (typeof name !== 'string') {
      this.#stale = true;
      return;
    }
    const path = dir === '' ? name : `${dir}/${name}`;
    if (name !== '.git') this.#touched?.add(path);
    if ((this.#touched?.size ?? 0) > MAX_TOUCHED) this.#touched = undefined;
    // A changed ignore file changes what must be watched: the next status check sets the watchers up again.
    if (name === '.gitignore') this.#stale = true;
    else if (event === 'rename' && name !== '.git') {
      this.#renamed?.add(path);
      if ((this.#renamed?.size ?? 0) > MAX_TOUCHED) this.#renamed = undefined;
    }
  }

  #stop(): false {
    this.#off = true;
    this.#ready = false;
    closeAll(this.#watchers);
    return false;
  }
}
