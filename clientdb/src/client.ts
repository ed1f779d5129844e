// The sync client: in the leader tab only (Web Locks), it holds the WebSocket, pushes the outbox
// in order, applies the server's pages, acks and rejects, reconnects with backoff and jitter, and
// follows the browser's online/offline events. Everything it learns is written to the device
// database, so every tab's live queries (and the status) follow.
import { CLOSE_CODES, LIMITS } from "@patrimonio/shared-schema";
import Dexie from "dexie";
import { applyAcks, applyPage, applyRejects, forgetWorkspace, heldCursor, observe, readCursors, startResync, type Ack, type Reject, type ServerPage } from "./apply";
import { dbOf, type ClientDb } from "./clientdb";
import type { CursorMeta, GoneReason, LinkMeta, LocalDb, OutboxRow } from "./db";
import { backoffDelay, type BackoffOptions } from "./backoff";
import { internals, type Internals } from "./internal";
import { LeaderElection, type LockManagerLike } from "./leader";
import { PING, decodeIncoming, encodeHello, encodeMutation, encodePull, encodePushOf, ProtocolError, type Incoming, type Welcome } from "./wire";

// ---------------------------------------------------------------- injectable environment

/** The part of the WebSocket API the client uses (browser WebSocket and the `ws` package both fit). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

/** Opens a socket to `url` (browser: `(url) => new WebSocket(url)`; Node: the `ws` package with
 * the session cookie and Origin headers). */
export type SocketFactory = (url: string) => SocketLike;

/** Online/offline signal (browser: navigator.onLine and the window events). */
export interface NetworkLike {
  online(): boolean;
  subscribe(onChange: (online: boolean) => void): () => void;
}

export interface TimersLike {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface SyncEvent {
  /** `page`: a page was applied and stored (detail: its workspaceId, cursor, snapshot, hasMore). */
  type: "connecting" | "open" | "welcome" | "close" | "retry" | "error" | "leader" | "follower" | "page";
  detail?: unknown;
}

export interface SyncClientOptions {
  /** wss://host/api/v1/sync */
  url: string;
  /** Workspaces to sync (the signed-in user's). Called at every connection. */
  workspaces: () => string[] | Promise<string[]>;
  socket?: SocketFactory;
  locks?: LockManagerLike;
  network?: NetworkLike;
  timers?: TimersLike;
  backoff?: BackoffOptions;
  /** Most mutations per push (also capped by the server's welcome). */
  batchSize?: number;
  /** Pushes in flight at once (each of up to batchSize mutations); 2 by default. */
  pushWindow?: number;
  /** Pages (snapshot or changes) received and waiting to be applied may hold this many characters
   * of frame text before the client stops asking for the next page ahead of applying them: while
   * they hold less, the next page is pulled as soon as a page arrives. 1 MiB by default (the
   * frame limit); 0 asks for the next page only when a page starts being applied. */
  pageBufferBytes?: number;
  /** While pushes wait for their answers, received pages wait to be applied until those answers
   * came, as long as they hold fewer than this many characters of frame text: a device pushing a
   * backlog sends it first and applies the pages (its own changes coming back, mostly) after.
   * 4 MiB by default (a 10,000-edit backlog's echo is about 3 MB; the pages waiting take several
   * times their text in memory once parsed); 0 applies pages in arrival order (acks still go
   * ahead of them). */
  pagesWaitBytes?: number;
  /** A connection that leaves a push, a pull or the hello unanswered this long (ms) is closed and
   * opened again (everything unanswered is sent again). 60 s by default; 0 disables. */
  answerTimeoutMs?: number;
  /** App-level ping interval (ms); a socket silent for twice as long is closed. 0 disables. */
  pingIntervalMs?: number;
  /** A fatal server error (unauthorized: the session ended; protocol_version/schema_version: the
   * app must be updated). The client stops reconnecting and leaves the election (another tab may
   * lead) until started again. */
  onFatal?: (code: string, message: string) => void;
  /** The server says the user may not read a workspace of `workspaces()` (no longer a member, or
   * the workspace deleted): its data was dropped and it is left out of the hellos of this client;
   * the app should fetch its list of workspaces again. */
  onAccessDenied?: (workspaceId: string) => void;
  /** Language of the server's messages (rejection issues, errors). */
  language?: "es" | "en";
  /** Diagnostics. */
  onEvent?: (event: SyncEvent) => void;
}

const OPEN = 1;

type Queued = { socket: SocketLike; msg: Incoming; bytes?: number; pulled?: boolean };

/** A push read and encoded ahead: the outbox entries after `after` (see #pump). */
type Prepared = { socket: SocketLike; after: number; full: boolean; batch: OutboxRow[]; text: string };

/** Full pushes kept read and encoded ahead while the window is full (#pump). */
const PREPARED_AHEAD = 2;

/** The last mutation id of a prepared push (a push has at least one). */
function lastIdOf(p: Prepared): number {
  return p.batch[p.batch.length - 1]!.mutationId;
}

function isPage(msg: Incoming): msg is Extract<Incoming, { type: "changes" | "snapshot" }> {
  return msg.type === "changes" || msg.type === "snapshot";
}
/** A connection up this long (ms) resets the reconnect backoff even if it did nothing useful
 * (longer than the answer watchdog, so a push left unanswered still backs off). */
const STABLE_CONNECTION_MS = 120_000;

/** The link row's error for a failure on this device (storage full, or anything else that failed
 * applying what the server sent or reading what to push): it stays until the sync makes progress
 * again, and every tab shows it. */
function localErrorCode(err: unknown): string {
  const names = [err, (err as { inner?: unknown } | null)?.inner].map((e) => (e as { name?: unknown } | null)?.name);
  return names.includes("QuotaExceededError") ? "storage_full" : "local_error";
}

/** Server error codes after which reconnecting cannot help. */
const FATAL = new Set(["unauthorized", "forbidden", "protocol_version", "schema_version", "replaced"]);
/** Close codes after which reconnecting cannot help (sync/PROTOCOL.md). */
const FATAL_CLOSE: Record<number, string> = {
  [CLOSE_CODES.unauthorized]: "unauthorized",
  [CLOSE_CODES.forbidden]: "forbidden",
  [CLOSE_CODES.version]: "protocol_version",
  [CLOSE_CODES.replaced]: "replaced",
};

function browserSocket(): SocketFactory {
  return (url) => new WebSocket(url) as unknown as SocketLike;
}

function browserLocks(): LockManagerLike {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!locks) throw new Error("Web Locks are not available: pass `locks` (e.g. a MemoryLockManager) to the SyncClient.");
  return locks as unknown as LockManagerLike;
}

function browserNetwork(): NetworkLike {
  return {
    online: () => (typeof navigator === "undefined" ? true : navigator.onLine !== false),
    subscribe(onChange) {
      if (typeof window === "undefined") return () => {};
      const on = () => onChange(true);
      const off = () => onChange(false);
      window.addEventListener("online", on);
      window.addEventListener("offline", off);
      return () => {
        window.removeEventListener("online", on);
        window.removeEventListener("offline", off);
      };
    },
  };
}

/** The platform's timers (the default of SyncClientOptions.timers). */
export const realTimers: TimersLike = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

// ---------------------------------------------------------------- the client

/**
 * Keeps one device database in sync. `start()` enters the leader election; only the leader
 * connects. `stop()` closes the socket and leaves the election (another tab takes over).
 */
export class SyncClient {
  readonly #handle: ClientDb;
  readonly #dev: Internals;
  readonly #db: LocalDb;
  readonly #now: () => number;
  readonly #opts: SyncClientOptions;
  readonly #socketFactory: SocketFactory;
  readonly #network: NetworkLike;
  readonly #timers: TimersLike;
  readonly #locks: LockManagerLike;
  #election: LeaderElection | undefined;

  #signal: AbortSignal | undefined;
  #socket: SocketLike | undefined;
  #welcome: Welcome | undefined;
  /** Reconnect attempts since the sync last made progress (see #progress). */
  #attempt = 0;
  /** When the current connection got its welcome (#now), for STABLE_CONNECTION_MS. */
  #welcomedAt: number | undefined;
  /** The last local failure (localErrorCode), cleared by progress: the link row shows it. */
  #localError: string | undefined;
  /** Workspaces the server denied (accessDenied): left out of this client's hellos. */
  #denied = new Set<string>();
  #retryTimer: unknown;
  #pingTimer: unknown;
  #lastHeard = 0;
  #stopped = true;
  #fatal: string | undefined;
  /** Mutation ids sent on this connection and not yet answered. */
  /** The mutation ids of each push sent on this connection and not fully answered yet. */
  #pushes: Set<number>[] = [];
  #pumpTimer: unknown;
  /** Workspaces pulled on this connection whose page has not come yet. */
  #pulls = new Set<string>();
  #answerTimer: unknown;
  #tokens = 0;
  #tokensAt = 0;
  #lastSent = 0;
  #pumping = false;
  /** A pump was asked for while one ran (see #pump). */
  #pumpAgain = false;
  /** The next push, read and encoded: the outbox entries after `after` (see #pump). */
  #prepared: Prepared[] = [];
  /** The outbox rows pushed on this connection and not answered yet, by mutation id (applyAcks
   * then reads only the outbox's keys). */
  #sent = new Map<number, OutboxRow>();
  /** Received messages not processed yet, with the socket each came from; a page also with its
   * frame's length and whether the page after it was pulled already (#pullAhead). */
  #queue: Queued[] = [];
  #draining: Promise<void> | undefined;
  /** #drain's loop is running: set and cleared synchronously, so that a message arriving in the
   * same turn as the loop's end (frames of one read, or a drain that found only waiting pages)
   * starts a new one. */
  #drainRunning = false;
  #unsubscribeOutbox: (() => void) | undefined;
  #unsubscribeNetwork: (() => void) | undefined;
  #unsubscribeGone: (() => void) | undefined;
  #link: Omit<LinkMeta, "key" | "at"> = { state: "offline", busy: false };
  #idleWaiters: (() => void)[] = [];
  #linkWrites: Promise<void> = Promise.resolve();
  /** The workspaces of the current connection's hello. */
  #synced: string[] = [];

  constructor(db: ClientDb, options: SyncClientOptions) {
    this.#handle = db;
    this.#dev = internals(db);
    this.#db = dbOf(db);
    this.#now = this.#dev.now;
    this.#opts = options;
    this.#socketFactory = options.socket ?? browserSocket();
    this.#network = options.network ?? browserNetwork();
    this.#timers = options.timers ?? realTimers;
    this.#locks = options.locks ?? browserLocks();
  }

  /** Whether this tab currently holds the socket. */
  get leading(): boolean {
    return this.#election?.leading ?? false;
  }

  /** Whether the socket is open and the server said welcome. */
  get connected(): boolean {
    return this.#welcome !== undefined && this.#socket?.readyState === OPEN;
  }

  start(): void {
    if (!this.#stopped) return;
    if (this.#db.gone !== undefined) {
      // A handle closed for good never syncs again (open a new one).
      this.#emit({ type: "error", detail: { code: "database_closed", reason: this.#db.gone } });
      return;
    }
    this.#stopped = false;
    this.#fatal = undefined;
    // The database closed for good (deleted by a sign-out in another tab, closed by the browser,
    // or replaced by another device's): stop at once, leading or waiting in the election's queue;
    // nothing more is read, written or sent for it.
    this.#unsubscribeGone = this.#db.onGone((reason) => this.#onGone(reason));
    this.#election = new LeaderElection(this.#locks, this.#handle.name);
    this.#election.start((signal) => this.#lead(signal));
  }

  /** Stops syncing in this tab and releases leadership. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribeGone?.();
    this.#unsubscribeGone = undefined;
    // Taken before waiting: a start() while this election leaves makes a new one, which the next
    // stop() must find (clearing the field after the wait lost it, and it went on leading).
    const election = this.#election;
    this.#election = undefined;
    await election?.stop();
  }

  /** Resolves once the client is connected with nothing left to push or to catch up (tests,
   * benchmarks). */
  async idle(): Promise<void> {
    for (;;) {
      const woken = new Promise<void>((resolve) => this.#idleWaiters.push(resolve));
      if (await this.#isIdle()) return;
      await woken;
    }
  }

  // ------------------------------------------------------------ leadership

  async #lead(signal: AbortSignal): Promise<void> {
    this.#signal = signal;
    this.#emit({ type: "leader" });
    // The stored row is what every tab shows (a previous session's leader may have ended without
    // writing "offline": a closed tab runs no cleanup): start from it, so the first state written
    // replaces it, even an "offline" that looks like nothing changed.
    const stored = (await this.#db.meta.get("link").catch(() => undefined)) as LinkMeta | undefined;
    this.#link = { state: stored?.state ?? "offline", busy: stored?.busy ?? false, error: stored?.error, lastSyncedAt: stored?.lastSyncedAt };
    this.#unsubscribeNetwork = this.#network.subscribe((online) => this.#onNetwork(online));
    // Commands of any tab add to the outbox: Dexie signals every committed write (other tabs'
    // through its BroadcastChannel), so the leader pushes them at once.
    const outboxPart = `idb://${this.#db.name}/outbox/`;
    const onMutated = (parts: Record<string, unknown>) => {
      if (Object.keys(parts).some((k) => k.startsWith(outboxPart) || k === "all")) void this.#pump();
    };
    Dexie.on("storagemutated", onMutated);
    this.#unsubscribeOutbox = () => Dexie.on("storagemutated").unsubscribe(onMutated);
    this.#connect();
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener("abort", () => resolve(), { once: true });
    });
    this.#unsubscribeOutbox?.();
    this.#unsubscribeNetwork();
    this.#timers.clearTimeout(this.#retryTimer);
    this.#timers.clearTimeout(this.#pingTimer);
    this.#timers.clearTimeout(this.#pumpTimer);
    this.#timers.clearTimeout(this.#answerTimer);
    this.#closeSocket(1000, "stopped");
    await this.#draining;
    await this.#writeLink({ state: "offline", busy: false });
    this.#emit({ type: "follower" });
    this.#signal = undefined;
  }

  #onGone(reason: GoneReason): void {
    this.#emit({ type: "error", detail: { code: "database_closed", reason } });
    this.#closeSocket(1000, "database closed");
    void this.stop();
  }

  #active(): boolean {
    return this.#signal !== undefined && !this.#signal.aborted && this.#fatal === undefined;
  }

  #onNetwork(online: boolean): void {
    if (!this.#active()) return;
    if (!online) {
      this.#timers.clearTimeout(this.#retryTimer);
      this.#closeSocket(1000, "offline");
      void this.#writeLink({ state: "offline", busy: false });
      return;
    }
    if (!this.#socket) {
      this.#attempt = 0;
      this.#timers.clearTimeout(this.#retryTimer);
      this.#connect();
    }
  }

  // ------------------------------------------------------------ connection

  #connect(): void {
    if (!this.#active() || this.#socket) return;
    if (!this.#network.online()) {
      void this.#writeLink({ state: "offline", busy: false });
      return;
    }
    this.#emit({ type: "connecting", detail: { attempt: this.#attempt } });
    // Every tab says "connecting" for a first attempt (a page load, the network back); a retry
    // after a lost or refused connection stays "offline", so that a server out of reach does not
    // make the indicator flicker between the two at every attempt.
    void this.#writeLink({ state: this.#attempt === 0 ? "connecting" : "offline", busy: false });
    let socket: SocketLike;
    try {
      socket = this.#socketFactory(this.#opts.url);
    } catch (err) {
      this.#emit({ type: "error", detail: err });
      this.#scheduleRetry();
      return;
    }
    this.#socket = socket;
    this.#welcome = undefined;
    this.#pushes = [];
    this.#pulls.clear();
    this.#lastSent = 0;
    this.#prepared = [];
    this.#sent.clear();
    socket.onopen = () => void this.#hello(socket);
    socket.onmessage = (ev) => this.#onMessage(socket, ev.data);
    socket.onerror = (ev) => this.#emit({ type: "error", detail: ev });
    socket.onclose = (ev) => this.#onClose(socket, ev.code, ev.reason);
  }

  async #hello(socket: SocketLike): Promise<void> {
    this.#emit({ type: "open" });
    this.#heard();
    let workspaces: string[];
    let stored: Map<string, CursorMeta>;
    try {
      const listed = await this.#opts.workspaces();
      stored = new Map((await readCursors(this.#db)).map((c) => [c.workspaceId, c] as const));
      // A workspace the device still holds but the app no longer lists (the user was removed from
      // it, or it was deleted, while this device was away) is asked for too: the server answers
      // accessDenied and its data leaves the device, or, listed late, it syncs as before.
      const held = [...stored.keys()].filter((w) => !listed.includes(w)).sort();
      workspaces = [...listed, ...held].filter((w) => !this.#denied.has(w)).slice(0, LIMITS.maxWorkspaces);
    } catch (err) {
      this.#localFailure(socket, err);
      return;
    }
    this.#synced = workspaces;
    const cursors: Record<string, number | null> = {};
    const resume: Record<string, string> = {};
    for (const w of workspaces) {
      const c = stored.get(w);
      // The last seq applied (0 included: an empty snapshot applied), or null: nothing yet.
      cursors[w] = heldCursor(c);
      // A snapshot in progress continues where it stopped.
      if (c?.snapshot?.resume !== undefined) resume[w] = c.snapshot.resume;
    }
    this.#send(socket, encodeHello(this.#handle.clientId, cursors, resume, this.#opts.language));
    this.#watch(socket);
  }

  #onClose(socket: SocketLike, code: number, reason: string): void {
    if (socket !== this.#socket) return;
    const fatal = FATAL_CLOSE[code];
    if (fatal !== undefined && this.#fatal === undefined) this.#stopFatal(fatal, reason);
    this.#socket = undefined;
    this.#welcome = undefined;
    this.#pushes = [];
    this.#timers.clearTimeout(this.#pingTimer);
    this.#timers.clearTimeout(this.#answerTimer);
    this.#emit({ type: "close", detail: { code, reason } });
    void this.#writeLink({ state: "offline", busy: false });
    this.#wakeIdle();
    if (this.#active() && this.#network.online()) this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    if (!this.#active()) return;
    // A connection that stayed up for a while starts the schedule again; a welcome alone does
    // not (a failure after every welcome would otherwise retry at the base delay for ever).
    if (this.#welcomedAt !== undefined && this.#now() - this.#welcomedAt >= STABLE_CONNECTION_MS) this.#attempt = 0;
    this.#welcomedAt = undefined;
    const delay = backoffDelay(this.#attempt, this.#opts.backoff);
    this.#attempt++;
    this.#emit({ type: "retry", detail: { delay, attempt: this.#attempt } });
    this.#timers.clearTimeout(this.#retryTimer);
    this.#retryTimer = this.#timers.setTimeout(() => this.#connect(), delay);
  }

  #closeSocket(code: number, reason: string): void {
    const s = this.#socket;
    if (!s) return;
    this.#socket = undefined;
    this.#welcome = undefined;
    this.#pushes = [];
    this.#timers.clearTimeout(this.#answerTimer);
    s.onclose = null;
    s.onmessage = null;
    try {
      s.close(code, reason);
    } catch {
      // already closed
    }
    this.#wakeIdle();
  }

  #heard(): void {
    this.#lastHeard = this.#now();
    const interval = this.#opts.pingIntervalMs ?? 25_000;
    if (interval <= 0) return;
    this.#timers.clearTimeout(this.#pingTimer);
    this.#pingTimer = this.#timers.setTimeout(() => this.#ping(), interval);
  }

  #ping(): void {
    const s = this.#socket;
    if (!s || s.readyState !== OPEN) return;
    const interval = this.#opts.pingIntervalMs ?? 25_000;
    if (this.#now() - this.#lastHeard >= 2 * interval) {
      // Silent for too long: the connection is dead even if the socket does not know yet.
      this.#drop(s, 4000, "no answer");
      return;
    }
    s.send(PING);
    this.#pingTimer = this.#timers.setTimeout(() => this.#ping(), interval);
  }

  // ------------------------------------------------------------ incoming

  #onMessage(socket: SocketLike, data: unknown): void {
    if (socket !== this.#socket) return;
    this.#heard();
    // Browsers give a text frame as a string; Node's ws as a Buffer (its characters count toward
    // the page budgets all the same).
    const text = typeof data === "string" ? data : String(data);
    let msg: Incoming;
    try {
      msg = decodeIncoming(text);
    } catch (err) {
      this.#emit({ type: "error", detail: err });
      if (err instanceof ProtocolError) this.#drop(socket, 4002, "invalid message");
      return;
    }
    if (isPage(msg)) {
      this.#queue.push({ socket, msg, bytes: text.length, pulled: false });
      this.#pullAhead(socket);
    } else this.#queue.push({ socket, msg });
    if (msg.type === "ack" || msg.type === "reject") {
      // The server has answered: its push leaves the window now (its transaction follows in
      // order), and the prepared next push goes out at once. A failure to apply the answer drops
      // the connection; the outbox, intact, is pushed again on the next one.
      this.#answered(msg.type === "ack" ? msg.acks.map((a) => a.mutationId) : [msg.mutationId]);
      if (this.#sendPrepared(socket)) void this.#pump();
    }
    this.#kick();
  }

  /** Starts draining the queue unless a drain is running. */
  #kick(): void {
    if (this.#drainRunning) return;
    this.#drainRunning = true;
    const run: Promise<void> = this.#drain().finally(() => {
      if (this.#draining === run) this.#draining = undefined;
      this.#wakeIdle();
    });
    this.#draining = run;
  }

  /**
   * Asks for the page after each workspace's newest received page (one not applied yet) without
   * waiting for its turn to be applied, while the pages waiting hold fewer than `pageBufferBytes`
   * characters: the server reads and sends the next page while the device applies the ones it
   * has. A workspace has at most one such pull in flight, so the pages waiting unapplied hold at
   * most `pageBufferBytes` plus one page (a frame, at most 1 MiB) per workspace being synced.
   * Over the budget, the page after a page is asked for when that page starts being applied
   * (#onPage), as flow control requires at the latest. Pages are still applied one at a time, in
   * order, each storing its own cursor or token: a page fetched ahead is just dropped with its
   * socket, and the next connection resumes from the last page applied.
   */
  #pullAhead(socket: SocketLike): void {
    if (this.#waitingPageBytes(socket) >= (this.#opts.pageBufferBytes ?? LIMITS.maxMessageBytes)) return;
    const newest = new Map<string, Queued>();
    for (const q of this.#queue) if (q.socket === socket && isPage(q.msg)) newest.set(q.msg.workspaceId, q);
    for (const q of newest.values()) if (!q.pulled) this.#pullNext(socket, q);
  }

  /** Characters of frame text of the pages of a socket received and not applied yet. */
  #waitingPageBytes(socket: SocketLike): number {
    let waiting = 0;
    for (const q of this.#queue) if (q.socket === socket && isPage(q.msg)) waiting += q.bytes ?? 0;
    return waiting;
  }

  /** Pulls the page after a page that has more, once. */
  #pullNext(socket: SocketLike, q: Queued): void {
    const page = q.msg;
    if (q.pulled || !isPage(page) || !page.hasMore) return;
    q.pulled = true;
    if (page.type === "snapshot") this.#pull(socket, page.workspaceId, null, page.resume);
    else this.#pull(socket, page.workspaceId, page.cursor);
  }

  /**
   * The index of the first queued ack that only pages (changes, snapshot) of the same socket
   * precede, or -1. An ack is processed before the pages queued ahead of it: it frees the push
   * window, so the next push leaves before those pages are applied (a device pushing 10,000
   * offline edits otherwise applies the echo of each push before sending the next one). Acks and
   * pages are separate transactions whose order the engine does not rely on (a page may come
   * before or after the ack of a mutation it carries); pages keep their order among themselves,
   * and every other message is a barrier.
   */
  #ackAhead(socket: SocketLike): number {
    for (let i = 0; i < this.#queue.length; i++) {
      const q = this.#queue[i]!;
      if (q.socket !== socket) return -1;
      if (q.msg.type === "ack") return i;
      if (q.msg.type !== "changes" && q.msg.type !== "snapshot") return -1;
    }
    return -1;
  }

  /**
   * Whether the pages at the head of the queue wait, unapplied, for the answers of the pushes in
   * flight (`pagesWaitBytes`): no ack is queued behind them (it would go ahead of them anyway),
   * a push of this socket is unanswered or the pump is reading one to send (an answer that found
   * no push prepared empties the window for that read, and a page applied meanwhile delayed the
   * push behind its transaction), and the pages received hold fewer characters than the budget.
   * A device pushing a backlog (10,000 offline edits) so keeps its push window full: the echo of
   * each push (its own changes, which change nothing it shows) used to be applied before
   * the next one could be read and sent. Nothing depends on the order: acks and pages are separate
   * transactions whose order the engine does not rely on (#ackAhead), pages keep theirs, and the
   * server's flow control is per pull (a pull is still sent as each page arrives, #pullAhead).
   * The wait ends with the answer that empties the window (or the pump's end, #pump), or when the
   * budget is reached: then the pages are applied as before, in order.
   */
  #pagesWait(socket: SocketLike): boolean {
    if (socket !== this.#socket || (this.#pushes.length === 0 && !this.#pumping) || this.#ackAhead(socket) >= 0) return false;
    return this.#waitingPageBytes(socket) < (this.#opts.pagesWaitBytes ?? 4 * LIMITS.maxMessageBytes);
  }

  /** Processes queued messages in arrival order, except that acks go ahead of pages (see
   * #ackAhead) and pages wait for the pushes in flight (#pagesWait); consecutive acks (or
   * rejects) share one transaction. Messages of a socket that is
   * no longer the current one are dropped (the next connection starts again from the stored
   * cursors and outbox). */
  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const first = this.#queue[0]!;
        // Pages first in the queue wait for the pushes in flight; the answer that empties the
        // window (#onMessage) drains them.
        if (isPage(first.msg) && this.#pagesWait(first.socket)) break;
        const ahead = isPage(first.msg) ? this.#ackAhead(first.socket) : -1;
        const entry = ahead > 0 ? this.#queue.splice(ahead, 1)[0]! : this.#queue.shift()!;
        const { socket, msg } = entry;
        if (socket !== this.#socket) continue;
        const more = <T extends Incoming["type"]>(type: T): Extract<Incoming, { type: T }> | undefined => {
          const at = type === "ack" ? this.#ackAhead(socket) : 0;
          const next = this.#queue[at];
          if (at < 0 || next === undefined || next.socket !== socket || next.msg.type !== type) return undefined;
          this.#queue.splice(at, 1);
          return next.msg as Extract<Incoming, { type: T }>;
        };
        try {
          switch (msg.type) {
            case "welcome":
              await this.#onWelcome(socket, msg);
              break;
            case "ack": {
              const acks: Ack[] = [...msg.acks];
              for (let next = more("ack"); next; next = more("ack")) acks.push(...next.acks);
              if ((await applyAcks(this.#dev, acks, this.#sent)) > 0) this.#progress();
              this.#answered(acks.map((a) => a.mutationId));
              for (const a of acks) this.#sent.delete(a.mutationId);
              break;
            }
            case "reject": {
              const rejects: Reject[] = [msg];
              for (let next = more("reject"); next; next = more("reject")) rejects.push(next);
              if ((await applyRejects(this.#dev, rejects)) > 0) this.#progress();
              this.#answered(rejects.map((r) => r.mutationId));
              for (const r of rejects) this.#sent.delete(r.mutationId);
              break;
            }
            case "changes":
            case "snapshot":
              await this.#onPage(socket, entry);
              break;
            case "resyncRequired":
              // Start again from a snapshot; the records stay visible and the outbox is kept.
              await startResync(this.#dev, msg.workspaceId);
              this.#pull(socket, msg.workspaceId, null);
              break;
            case "accessDenied":
              this.#pulls.delete(msg.workspaceId);
              this.#prepared = [];
              // Out of the hellos and of what idle waits for: the list of workspaces comes from
              // the app, which is told to fetch it again.
              this.#denied.add(msg.workspaceId);
              this.#synced = this.#synced.filter((w) => w !== msg.workspaceId);
              await forgetWorkspace(this.#dev, msg.workspaceId);
              this.#opts.onAccessDenied?.(msg.workspaceId);
              break;
            case "error":
              this.#onError(msg.code, msg.message);
              break;
            case "pong":
              break;
          }
          // A page changes nothing a push waits for (the window opens with answers, commands signal
          // the pump themselves): after one, the outbox is not read again (a cold sync of 200 pages
          // read it 200 times).
          if (msg.type !== "changes" && msg.type !== "snapshot") await this.#pump();
          this.#watch(socket);
          if (!this.#queue.some((q) => q.socket === socket)) await this.#updateLink(true);
        } catch (err) {
          // A local failure (e.g. storage) must not leave the connection half-applied: drop it; the
          // reconnect replays from the stored cursor and outbox.
          this.#localFailure(socket, err);
        }
      }
    } finally {
      this.#drainRunning = false;
    }
  }

  async #onWelcome(socket: SocketLike, msg: Welcome): Promise<void> {
    await this.#db.transaction("rw", this.#db.meta, async () => {
      await this.#db.assertOwn(this.#handle.clientId);
      await observe(this.#dev, msg.serverTime);
    });
    if (socket !== this.#socket) return;
    this.#welcome = msg;
    this.#welcomedAt = this.#now();
    this.#tokens = Math.max(1, Math.floor((msg.limits.maxMessagesPerSecond ?? 100) / 2));
    this.#tokensAt = this.#now();
    this.#emit({ type: "welcome", detail: msg });
    await this.#writeLink({ state: "online", busy: true });
  }

  /**
   * Applies a page (one transaction). While the server has more, the next page was asked for
   * when this one arrived (#pullAhead), or is now, before this one is applied (flow control,
   * sync/PROTOCOL.md: one pull per page received), so the server reads and sends it meanwhile.
   * Pages are applied one by one, in order, each with its cursor; a page that fails to apply
   * drops the socket, and the pages asked for in advance with it (the reconnect starts from the
   * stored cursor or token).
   */
  async #onPage(socket: SocketLike, entry: Queued): Promise<void> {
    const page = entry.msg as ServerPage;
    this.#pullNext(socket, entry);
    // This page no longer waits: the budget may let the newest one's successor be asked for.
    this.#pullAhead(socket);
    const result = await applyPage(this.#dev, page);
    if (result.applied > 0 || result.snapshotDone) this.#progress();
    if (!page.hasMore) this.#pulls.delete(page.workspaceId);
    this.#emit({ type: "page", detail: { workspaceId: page.workspaceId, cursor: page.cursor, snapshot: page.snapshot, hasMore: page.hasMore } });
  }

  #send(socket: SocketLike, data: string): void {
    if (socket === this.#socket && socket.readyState === OPEN) socket.send(data);
  }

  /** Pulls the changes after `after`, or (null) a snapshot page: a new snapshot, or the one
   * `pageToken` continues. */
  #pull(socket: SocketLike, workspaceId: string, after: number | null, pageToken?: string): void {
    this.#pulls.add(workspaceId);
    this.#send(socket, encodePull(workspaceId, after, pageToken));
    this.#watch(socket);
  }

  /** (Re)arms the answer watchdog while something sent waits for its answer. */
  #watch(socket: SocketLike): void {
    const timeout = this.#opts.answerTimeoutMs ?? 60_000;
    this.#timers.clearTimeout(this.#answerTimer);
    if (timeout <= 0 || socket !== this.#socket) return;
    if (this.#welcome !== undefined && this.#pushes.length === 0 && this.#pulls.size === 0) return;
    this.#answerTimer = this.#timers.setTimeout(() => this.#drop(socket, 4002, "no answer"), timeout);
  }

  #onError(code: string, message: string): void {
    this.#emit({ type: "error", detail: { code, message } });
    if (FATAL.has(code)) {
      this.#stopFatal(code, message);
      this.#closeSocket(1000, code);
      return;
    }
    // Anything else: the server closes the socket; the reconnect starts over.
  }

  /** Stops reconnecting until start() is called again (the session ended, the app is too old...),
   * and leaves the election: another tab (an updated one, say) may lead; this one does not queue
   * again, so tabs that all get the error try once each. */
  #stopFatal(code: string, message: string): void {
    this.#fatal = code;
    this.#timers.clearTimeout(this.#retryTimer);
    void this.#writeLink({ state: "offline", busy: false, error: code });
    this.#opts.onFatal?.(code, message);
    void this.stop();
  }

  /** The sync moved on (a page brought changes or ended a snapshot, an answer settled outbox
   * entries): the reconnect backoff starts again and a local failure is over. */
  #progress(): void {
    this.#attempt = 0;
    this.#localError = undefined;
  }

  /** Something failed on this device (storage, a page that cannot be applied): recorded for the
   * status, and the connection is dropped; the reconnect replays from the stored cursor and outbox
   * on the backoff schedule. */
  #localFailure(socket: SocketLike, err: unknown): void {
    this.#emit({ type: "error", detail: err });
    this.#localError = localErrorCode(err);
    this.#drop(socket, 4001, "client error");
  }

  /** Closes a connection from this side and reconnects after the backoff delay. */
  #drop(socket: SocketLike, code: number, reason: string): void {
    if (socket !== this.#socket) return;
    this.#closeSocket(code, reason);
    this.#timers.clearTimeout(this.#pingTimer);
    this.#emit({ type: "close", detail: { code, reason } });
    void this.#writeLink({ state: "offline", busy: false });
    if (this.#active() && this.#network.online()) this.#scheduleRetry();
  }

  // ------------------------------------------------------------ pushing

  #batchSize(): number {
    const server = this.#welcome?.limits.maxMutationsPerPush ?? LIMITS.maxMutationsPerPush;
    return Math.max(1, Math.min(this.#opts.batchSize ?? server, server));
  }

  /** Sends outbox entries not sent on this connection yet, in mutationId order: at most
   * `pushWindow` pushes in flight (commands made meanwhile gather into the next push), and no more
   * pushes per second than half the server's message rate (the rest is left for pulls and pings).
   * The next two full pushes are read and encoded ahead (#prepared, PREPARED_AHEAD) while the
   * window is full, so each answer that opens the window sends one at once (#onMessage), without
   * waiting for a read of the outbox behind the transactions queued meanwhile (one push ahead left
   * the window half empty whenever two answers came closer together than a read: `offline_10k`
   * 0.583 → 0.527 s, medians of 5 alternated runs). */
  async #pump(): Promise<void> {
    if (this.#pumping) {
      // The running pump may have read the outbox before the command that asks now: it goes round
      // once more when done, so no signal is lost (and no message needs to pump just in case).
      this.#pumpAgain = true;
      return;
    }
    this.#pumping = true;
    try {
      do {
        this.#pumpAgain = false;
        await this.#pumpOnce();
      } while (this.#pumpAgain);
    } finally {
      this.#pumping = false;
      // Pages wait while a push is being read (#pagesWait): when none was sent, they go now.
      if (this.#queue.length > 0) this.#kick();
    }
  }

  async #pumpOnce(): Promise<void> {
    try {
      const size = this.#batchSize();
      for (;;) {
        const socket = this.#socket;
        if (!socket || !this.#welcome || socket.readyState !== OPEN) return;
        const p = this.#prepared[0];
        if (p === undefined || !p.full || p.socket !== socket || p.after !== this.#lastSent) {
          this.#prepared = [];
          const after = this.#lastSent;
          const next = await this.#prepare(socket, after, size);
          if (next === undefined || after !== this.#lastSent) return;
          this.#prepared = [next];
        }
        if (!this.#sendPrepared(socket, true)) {
          // It waits for the window or the rate. Only a full push is kept for then; a smaller one
          // is read again, so commands made meanwhile join it.
          if (this.#prepared[0]?.full !== true) {
            this.#prepared = [];
            return;
          }
          // The window is full: the push after it is read too (a full one is kept), so that the
          // answers that empty the window each send a push at once, without waiting for a read of
          // the outbox behind the transactions queued meanwhile.
          while (this.#prepared.length < PREPARED_AHEAD) {
            const last = this.#prepared.at(-1);
            if (last === undefined || !last.full) return;
            const after = lastIdOf(last);
            const next = await this.#prepare(socket, after, size);
            // Meanwhile an answer may have sent the pushes prepared: this one must still continue them.
            const tail = this.#prepared.at(-1);
            if (next === undefined || !next.full || after !== (tail === undefined ? this.#lastSent : lastIdOf(tail))) return;
            this.#prepared.push(next);
          }
          return;
        }
        await this.#updateLink();
      }
    } catch (err) {
      // A local failure (storage, or a database closed for good, which stops the client): drop the
      // connection; a reconnect, if any, pushes the outbox again from its start.
      if (this.#socket) this.#localFailure(this.#socket, err);
      else this.#emit({ type: "error", detail: err });
    }
  }

  /** Reads and encodes the push of the outbox entries after `after`: undefined when there are none,
   * or the connection or the database changed meanwhile. */
  async #prepare(socket: SocketLike, after: number, size: number): Promise<Prepared | undefined> {
    // The handle reads only its own device's database: a reopen checks the device (LocalDb.own)
    // and a deletion closes it for good, which stops this client.
    const rows = await this.#db.outbox.where("mutationId").above(after).limit(size).toArray();
    if (rows.length === 0 || socket !== this.#socket || this.#db.gone !== undefined) return undefined;
    const fit = this.#fit(rows);
    // Full: it cannot grow (a whole push read, or cut by the frame size).
    return { socket, after, full: rows.length >= size || fit.batch.length < rows.length, ...fit };
  }

  /** Sends the prepared push if it continues what this socket was sent and the window and the
   * rate allow it now (a rate wait schedules the pump); whether it was sent. A push that could
   * still grow is sent only `fresh` (by the pump, right after reading it). */
  #sendPrepared(socket: SocketLike, fresh = false): boolean {
    const p = this.#prepared[0];
    if (p === undefined || (!p.full && !fresh) || p.socket !== socket || p.after !== this.#lastSent) return false;
    if (socket !== this.#socket || !this.#welcome || socket.readyState !== OPEN) return false;
    if (this.#pushes.length >= (this.#opts.pushWindow ?? 2)) return false;
    const wait = this.#pushWait();
    if (wait > 0) {
      this.#timers.clearTimeout(this.#pumpTimer);
      this.#pumpTimer = this.#timers.setTimeout(() => void this.#pump(), wait);
      return false;
    }
    this.#prepared.shift();
    socket.send(p.text);
    this.#tokens -= 1;
    this.#pushes.push(new Set(p.batch.map((r) => r.mutationId)));
    for (const r of p.batch) this.#sent.set(r.mutationId, r);
    this.#lastSent = lastIdOf(p);
    if (this.#pushes.length === 1) this.#watch(socket);
    return true;
  }

  /** ms to wait before the next push may be sent (token bucket on the injected clock). */
  #pushWait(): number {
    const rate = Math.max(1, Math.floor((this.#welcome?.limits.maxMessagesPerSecond ?? 100) / 2));
    const now = this.#now();
    this.#tokens = Math.min(rate, this.#tokens + ((now - this.#tokensAt) * rate) / 1000);
    this.#tokensAt = now;
    return this.#tokens >= 1 ? 0 : Math.ceil(((1 - this.#tokens) * 1000) / rate);
  }

  /** Mutations answered (acked or rejected): their pushes leave the window once fully answered. */
  #answered(ids: Iterable<number>): void {
    for (const id of ids) for (const p of this.#pushes) p.delete(id);
    this.#pushes = this.#pushes.filter((p) => p.size > 0);
  }

  /** The first push of rows (at least one) under the frame size limit, and its text. */
  #fit(rows: OutboxRow[]): { batch: OutboxRow[]; text: string } {
    const max = (this.#welcome?.limits.maxMessageBytes ?? LIMITS.maxMessageBytes) - 1024;
    const batch: OutboxRow[] = [];
    const parts: string[] = [];
    let bytes = 0;
    for (const r of rows) {
      const part = encodeMutation(r);
      const size = (part.length + 1) * 3; // worst case: every UTF-16 unit as 3 UTF-8 bytes
      if (batch.length > 0 && bytes + size > max) break;
      batch.push(r);
      parts.push(part);
      bytes += size;
    }
    return { batch, text: encodePushOf(parts) };
  }

  // ------------------------------------------------------------ status

  async #isIdle(fromDrain = false): Promise<boolean> {
    if (!this.connected || this.#queue.length > 0 || (this.#draining && !fromDrain) || this.#pushes.length > 0) return false;
    if ((await this.#db.outbox.count()) > 0) return false;
    // Every workspace of the hello has had its last page (a fresh device has no cursor yet).
    const cursors = new Map((await readCursors(this.#db)).map((c) => [c.workspaceId, c] as const));
    return this.#synced.every((w) => {
      const c = cursors.get(w);
      return c !== undefined && c.caughtUp && c.snapshot === undefined;
    });
  }

  async #updateLink(fromDrain = false): Promise<void> {
    if (!this.connected) {
      this.#wakeIdle();
      return;
    }
    const socket = this.#socket;
    const idle = await this.#isIdle(fromDrain);
    if (socket !== this.#socket || !this.connected) return;
    // Nothing left to do: whatever failed before is over.
    if (idle) this.#progress();
    if (idle) await this.#writeLink({ state: "online", busy: false, lastSyncedAt: this.#now() });
    else await this.#writeLink({ state: "online", busy: true });
    this.#wakeIdle();
  }

  /** Records the link state for every tab (writes are queued so they land in order). The error is
   * the fatal one this client stopped on, else the last local failure, unless one is given. */
  #writeLink(next: Omit<LinkMeta, "key" | "at" | "lastSyncedAt"> & { lastSyncedAt?: number }): Promise<void> {
    const prev = this.#link;
    const error = next.error ?? this.#fatal ?? this.#localError;
    const merged = { state: next.state, busy: next.busy, error, lastSyncedAt: next.lastSyncedAt ?? prev.lastSyncedAt };
    const same =
      prev.state === merged.state && prev.busy === merged.busy && prev.error === merged.error && prev.lastSyncedAt === merged.lastSyncedAt;
    if (same) return this.#linkWrites;
    this.#link = merged;
    const row: LinkMeta = { key: "link", state: merged.state, busy: merged.busy, at: this.#now() };
    if (merged.error !== undefined) row.error = merged.error;
    if (merged.lastSyncedAt !== undefined) row.lastSyncedAt = merged.lastSyncedAt;
    this.#linkWrites = this.#linkWrites
      .then(() => this.#db.meta.put(row))
      .then(
        () => undefined,
        (err: unknown) => this.#emit({ type: "error", detail: err }),
      );
    return this.#linkWrites;
  }

  #wakeIdle(): void {
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const w of waiters) w();
  }

  #emit(event: SyncEvent): void {
    this.#opts.onEvent?.(event);
  }
}
