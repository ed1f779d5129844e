// Applying server pages, acks and rejects: the device ends in the server's state, merged with
// the same rules (sync/testdata vectors computed by Go), and its own edits survive every order.
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { applyAcks, applyPage, applyRejects, forgetWorkspace, startResync, type ServerChange, type ServerPage } from "../src/apply";
import { seededRandom } from "../src/backoff";
import { dbOf, type ClientDb } from "../src/clientdb";
import type { OutboxRow } from "../src/db";
import { uuidv7 } from "../src/ids";
import { internals } from "../src/internal";
import { applyMutation, emptyRecordState, shownConflicts, type Mutation, type RecordState } from "../src/merge";
import { decodeIncoming } from "../src/wire";
import { OTHER_WORKSPACE, WORKSPACE, openDevice, task } from "./support";

interface GeneratedVectors {
  histories: { seed: number; mutations: Mutation[]; want: RecordState }[];
}
interface MergeVectors {
  cases: { name: string; steps: { apply: Mutation }[]; want: RecordState }[];
}

function load<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../../sync/testdata/${name}`, import.meta.url), "utf8")) as T;
}

/** JSON with sorted keys: equal states give equal strings. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, value: unknown) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, (value as Record<string, unknown>)[k]]));
  });
}

const OTHER_CLIENT = "0f0f0f0f-0000-4000-8000-00000000000f";

function change(seq: number, recordId: string, mutation: Mutation, mutationId = seq): ServerChange {
  return { seq, collection: "tasks", recordId, kind: "mutation", mutationId, mutation };
}

/** The server's echo of an outbox entry (as committed at `seq`). */
function echo(row: OutboxRow, seq: number, stamp?: string): ServerChange {
  return {
    seq,
    collection: row.collection,
    recordId: row.recordId,
    kind: "mutation",
    mutationId: row.mutationId,
    mutation: { ...row.mutation, stamp: stamp ?? row.mutation.stamp },
  };
}

async function outboxOf(db: ClientDb): Promise<OutboxRow[]> {
  return dbOf(db).outbox.orderBy("mutationId").toArray();
}

async function page(db: ClientDb, changes: ServerChange[], cursor: number, options: { hasMore?: boolean; workspaceId?: string } = {}) {
  return applyPage(internals(db), { workspaceId: options.workspaceId ?? WORKSPACE, changes, cursor, hasMore: options.hasMore ?? false, snapshot: false });
}

describe("merge on apply matches the server", () => {
  const generated = load<GeneratedVectors>("merge_generated_vectors.json");
  const vectors = load<MergeVectors>("merge_vectors.json");

  test.each(generated.histories.map((h) => [h.seed, h] as const))(
    "history %i, applied in pages of random sizes with replays, ends in Go's state",
    async (seed, h) => {
      const d = await openDevice();
      const id = uuidv7(0);
      const random = seededRandom(seed);
      const changes = h.mutations.map((m, i) => change(i + 1, id, m));
      let at = 0;
      while (at < changes.length) {
        const size = 1 + Math.floor(random() * 5);
        const slice = changes.slice(at, at + size);
        const cursor = slice[slice.length - 1]!.seq;
        await page(d.db, slice, cursor, { hasMore: at + size < changes.length });
        // A replayed page (a reconnect resending what was applied) changes nothing.
        if (random() < 0.3) await page(d.db, slice, cursor);
        at += size;
      }
      expect(canonical(await d.db.confirmed("tasks", id))).toBe(canonical(h.want));
      expect(await d.db.cursor(WORKSPACE)).toBe(changes.length);
      const shown = shownConflicts(h.want).map((c) => [c.field, c.stamp]);
      expect((await d.db.conflicts(WORKSPACE)).map((c) => [c.field, c.stamp])).toEqual(shown);
    },
  );

  test.each(vectors.cases.map((c) => [c.name, c] as const))("vector: %s, read from the wire as the server writes it", async (_name, c) => {
    const d = await openDevice();
    const id = uuidv7(0);
    // The changes page and a snapshot of the final state, as JSON text (the server's shape: the
    // mutation's members beside seq, collection, recordId and mutationId; `late` included).
    const changes = c.steps.map((s, i) => ({ seq: i + 1, collection: "tasks", recordId: id, mutationId: i + 1, base: {}, ...s.apply }));
    const text = JSON.stringify({ type: "changes", workspaceId: WORKSPACE, cursor: changes.length, hasMore: false, changes });
    await applyPage(internals(d.db), decodeIncoming(text) as ServerPage);
    expect(canonical(await d.db.confirmed("tasks", id))).toBe(canonical(c.want));

    const other = uuidv7(1);
    const snapshot = JSON.stringify({ type: "snapshot", workspaceId: OTHER_WORKSPACE, cursor: 1, hasMore: false, records: [{ collection: "tasks", recordId: other, seq: 1, state: c.want }] });
    await applyPage(internals(d.db), decodeIncoming(snapshot) as ServerPage);
    expect(canonical(await d.db.confirmed("tasks", other))).toBe(canonical(c.want));
  });

  test("a snapshot record replaces the confirmed state and later changes merge on top", async () => {
    const h = generated.histories[3]!;
    const d = await openDevice();
    const id = uuidv7(0);
    const half = Math.floor(h.mutations.length / 2);
    let state = emptyRecordState();
    for (const m of h.mutations.slice(0, half)) state = applyMutation(state, m).state;
    await applyPage(internals(d.db), {
      workspaceId: WORKSPACE,
      changes: [{ seq: half, collection: "tasks", recordId: id, kind: "state", state }],
      cursor: half,
      hasMore: false,
      snapshot: true,
    });
    await page(
      d.db,
      h.mutations.slice(half).map((m, i) => change(half + i + 1, id, m)),
      h.mutations.length,
    );
    expect(canonical(await d.db.confirmed("tasks", id))).toBe(canonical(h.want));
  });
});

describe("the device's own mutations", () => {
  test("ack then echo: the record never shows anything but the new value, and the outbox empties", async () => {
    const d = await openDevice();
    const r = await d.db.create("tasks", WORKSPACE, task());
    if (!r.ok) throw new Error("create failed");
    const [row] = await outboxOf(d.db);
    await applyAcks(internals(d.db), [{ mutationId: row!.mutationId, seq: 1, stamp: row!.mutation.stamp }]);
    expect(await outboxOf(d.db)).toHaveLength(0);
    const acked = await d.db.get("tasks", r.id);
    expect(acked?.fields).toEqual(task());
    expect(acked?.pending).toBe(1);

    await page(d.db, [echo(row!, 1)], 1);
    const done = await d.db.get("tasks", r.id);
    expect(done?.fields).toEqual(task());
    expect(done?.pending).toBe(0);
    expect(canonical(await d.db.confirmed("tasks", r.id))).toBe(canonical(applyMutation(emptyRecordState(), row!.mutation).state));
  });

  test("echo before the ack: the same end state", async () => {
    const d = await openDevice();
    const r = await d.db.create("tasks", WORKSPACE, task());
    if (!r.ok) throw new Error("create failed");
    const [row] = await outboxOf(d.db);
    await page(d.db, [echo(row!, 1)], 1);
    expect((await d.db.get("tasks", r.id))?.pending).toBe(0);
    // Still in the outbox until acknowledged: a reconnect would resend it (the server answers duplicate).
    expect(await outboxOf(d.db)).toHaveLength(1);
    await applyAcks(internals(d.db), [{ mutationId: row!.mutationId, seq: 1 }]);
    expect(await outboxOf(d.db)).toHaveLength(0);
    expect((await d.db.get("tasks", r.id))?.fields).toEqual(task());
  });

  test("a pending edit stays on top of other devices' changes until the server has it", async () => {
    const d = await openDevice();
    const r = await d.db.create("tasks", WORKSPACE, task());
    if (!r.ok) throw new Error("create failed");
    const [create] = await outboxOf(d.db);
    await applyAcks(internals(d.db), [{ mutationId: 1, seq: 1 }]);
    await page(d.db, [echo(create!, 1)], 1);

    // Offline: this device edits the title...
    d.clock.advance(10_000);
    await d.db.update("tasks", r.id, { title: "mine" });
    const [mine] = await outboxOf(d.db);
    // ...while another device's earlier (concurrent) edit of the title arrives.
    const theirs: Mutation = {
      op: "put",
      stamp: "2025-03-01T10:00:05.000Z-0000-aaaaaaaaaaaaaaaa",
      author: OTHER_CLIENT,
      fields: { title: "theirs", notes: "n" },
      base: { title: create!.mutation.stamp },
    };
    await page(d.db, [change(2, r.id, theirs, 9)], 2);
    const during = await d.db.get("tasks", r.id);
    expect(during?.fields).toMatchObject({ title: "mine", notes: "n" });
    expect(during?.pending).toBe(1);

    // The server applies this device's edit after theirs: the same merge on both sides.
    await applyAcks(internals(d.db), [{ mutationId: mine!.mutationId, seq: 3 }]);
    await page(d.db, [echo(mine!, 3)], 3);
    let server = emptyRecordState();
    for (const m of [create!.mutation, theirs, mine!.mutation]) server = applyMutation(server, m).state;
    expect(canonical(await d.db.confirmed("tasks", r.id))).toBe(canonical(server));
    const after = await d.db.get("tasks", r.id);
    expect(after?.pending).toBe(0);
    // The losing title is a conflict everyone sees.
    expect((await d.db.conflicts(WORKSPACE)).map((c) => ({ field: c.field, value: c.value, current: c.current }))).toEqual([
      { field: "title", value: "theirs", current: "mine" },
    ]);
  });

  test("a snapshot that contains an own mutation confirms it once it is acknowledged, not before", async () => {
    const d = await openDevice();
    const r = await d.db.create("tasks", WORKSPACE, task());
    if (!r.ok) throw new Error("create failed");
    const [row] = await outboxOf(d.db);
    const state = applyMutation(emptyRecordState(), row!.mutation).state;
    const snapshot = () =>
      applyPage(internals(d.db), {
        workspaceId: WORKSPACE,
        changes: [{ seq: 1, collection: "tasks", recordId: r.id, kind: "state", state }],
        cursor: 1,
        hasMore: false,
        snapshot: true,
      });
    // The ack has not come: the server may still reject it, so it stays on top.
    await snapshot();
    expect((await d.db.get("tasks", r.id))?.pending).toBe(1);
    // Its ack (a duplicate of an applied mutation): the confirmed state has it, it leaves at once.
    await applyAcks(internals(d.db), [{ mutationId: row!.mutationId, seq: 1, stamp: row!.mutation.stamp }]);
    const rec = await d.db.get("tasks", r.id);
    expect(rec?.pending).toBe(0);
    expect(rec?.fields).toEqual(task());

    // Acknowledged first, then a (re)snapshot that contains it: it leaves with the snapshot.
    await d.db.update("tasks", r.id, { status: "done" });
    const [edit] = await outboxOf(d.db);
    await applyAcks(internals(d.db), [{ mutationId: edit!.mutationId, seq: 2, stamp: edit!.mutation.stamp }]);
    expect((await d.db.get("tasks", r.id))?.pending).toBe(1);
    await startResync(internals(d.db), WORKSPACE);
    await applyPage(internals(d.db), {
      workspaceId: WORKSPACE,
      changes: [{ seq: 2, collection: "tasks", recordId: r.id, kind: "state", state: applyMutation(state, edit!.mutation).state }],
      cursor: 2,
      hasMore: false,
      snapshot: true,
    });
    const after = await d.db.get("tasks", r.id);
    expect(after?.pending).toBe(0);
    expect(after?.fields.status).toBe("done");
  });

  test("a re-stamped edit takes the server's stamp", async () => {
    const d = await openDevice();
    d.clock.advance(365 * 86400_000); // this device's clock is a year ahead
    const r = await d.db.create("tasks", WORKSPACE, task());
    if (!r.ok) throw new Error("create failed");
    const [row] = await outboxOf(d.db);
    const restamp = "2025-03-01T10:00:00.000Z-0000-5e5e5e5e5e5e5e5e";
    await applyAcks(internals(d.db), [{ mutationId: row!.mutationId, seq: 1, stamp: restamp }]);
    expect((await d.db.get("tasks", r.id))?.clocks.title).toBe(restamp);
    await page(d.db, [echo(row!, 1, restamp)], 1);
    const rec = await d.db.get("tasks", r.id);
    expect(rec?.clocks.title).toBe(restamp);
    expect(rec?.pending).toBe(0);
  });

  test("every stamp received moves the device clock past it", async () => {
    const d = await openDevice();
    const r = await d.db.create("tasks", WORKSPACE, task());
    if (!r.ok) throw new Error("create failed");
    const ahead = "2025-03-01T11:00:00.000Z-0007-aaaaaaaaaaaaaaaa"; // an hour ahead of this device
    await page(d.db, [change(1, r.id, { op: "put", stamp: ahead, author: OTHER_CLIENT, fields: { notes: "x" }, base: {} })], 1);
    await d.db.update("tasks", r.id, { status: "done" });
    const out = await outboxOf(d.db);
    expect(out[1]!.mutation.stamp > ahead).toBe(true);
  });
});

describe("acks of a device whose workspace is held (a completed snapshot)", () => {
  async function heldDevice() {
    const d = await openDevice();
    // An empty snapshot applied: the workspace is held at seq 0.
    await applyPage(internals(d.db), { workspaceId: WORKSPACE, changes: [], cursor: 0, hasMore: false, snapshot: true });
    return d;
  }

  /** Counts the rows of a table read while `f` runs. */
  async function rowsRead(d: { db: ClientDb }, name: "tasks" | "outbox", f: () => Promise<unknown>): Promise<number> {
    let n = 0;
    const table = dbOf(d.db).table(name);
    const hook = (row: unknown) => {
      n++;
      return row;
    };
    table.hook("reading", hook);
    try {
      await f();
    } finally {
      table.hook("reading").unsubscribe(hook);
    }
    return n;
  }

  test("an ack above the cursor reads no record row; the echo then confirms the edit", async () => {
    const d = await heldDevice();
    const a = await d.db.create("tasks", WORKSPACE, task());
    const b = await d.db.create("tasks", WORKSPACE, { ...task(), title: "second" });
    if (!a.ok || !b.ok) throw new Error("create failed");
    const out = await outboxOf(d.db);
    const read = await rowsRead(d, "tasks", () => applyAcks(internals(d.db), out.map((o, i) => ({ mutationId: o.mutationId, seq: i + 1, stamp: o.mutation.stamp }))));
    expect(read).toBe(0);
    expect(await outboxOf(d.db)).toHaveLength(0);
    expect((await d.db.get("tasks", a.id))?.pending).toBe(1);

    await page(d.db, out.map((o, i) => echo(o, i + 1)), 2);
    for (const [o, id] of [[out[0]!, a.id], [out[1]!, b.id]] as const) {
      const rec = await d.db.get("tasks", id);
      expect(rec?.pending).toBe(0);
      expect(canonical(await d.db.confirmed("tasks", id))).toBe(canonical(applyMutation(emptyRecordState(), o.mutation).state));
    }
    expect(await d.db.cursor(WORKSPACE)).toBe(2);
  });

  test("an ack at or below the cursor (its page came first) and a re-stamp still read and fix the row", async () => {
    const d = await heldDevice();
    const a = await d.db.create("tasks", WORKSPACE, task());
    const b = await d.db.create("tasks", WORKSPACE, { ...task(), title: "second" });
    if (!a.ok || !b.ok) throw new Error("create failed");
    const [first, second] = await outboxOf(d.db);
    // The first one's echo comes before its ack.
    await page(d.db, [echo(first!, 1)], 1);
    expect((await d.db.get("tasks", a.id))?.pending).toBe(0);
    const restamp = "2025-03-01T10:00:00.000Z-0000-5e5e5e5e5e5e5e5e";
    const read = await rowsRead(d, "tasks", () =>
      applyAcks(internals(d.db), [
        { mutationId: first!.mutationId, seq: 1 },
        { mutationId: second!.mutationId, seq: 2, stamp: restamp },
      ]),
    );
    expect(read).toBeGreaterThan(0);
    expect(await outboxOf(d.db)).toHaveLength(0);
    expect((await d.db.get("tasks", a.id))?.fields).toEqual(task());
    // The re-stamped one shows the server's stamp at once, as without a held cursor.
    expect((await d.db.get("tasks", b.id))?.clocks.title).toBe(restamp);
    await page(d.db, [echo(second!, 2, restamp)], 2);
    expect((await d.db.get("tasks", b.id))?.pending).toBe(0);
  });

  test("with the pushed rows at hand, an ack reads only the outbox's keys and answers only what is still there", async () => {
    const d = await heldDevice();
    for (let i = 0; i < 3; i++) await d.db.create("tasks", WORKSPACE, { ...task(), title: `t${i}` });
    const out = await outboxOf(d.db);
    const pushed = new Map(out.map((o) => [o.mutationId, o] as const));
    // The first one was answered already (e.g. before a reconnect).
    await applyAcks(internals(d.db), [{ mutationId: out[0]!.mutationId, seq: 1, stamp: out[0]!.mutation.stamp }]);
    let acked = 0;
    const read = await rowsRead(d, "outbox", async () => {
      acked = await applyAcks(
        internals(d.db),
        out.map((o, i) => ({ mutationId: o.mutationId, seq: i + 1, stamp: o.mutation.stamp })),
        pushed,
      );
    });
    expect(read).toBe(0);
    expect(acked).toBe(2);
    expect(await outboxOf(d.db)).toHaveLength(0);
    await page(d.db, out.map((o, i) => echo(o, i + 1)), 3);
    for (const o of out) expect((await d.db.get("tasks", o.recordId))?.pending).toBe(0);
  });

  test("a duplicate ack (seq 0) of a mutation a snapshot already contains leaves the record at once", async () => {
    const d = await heldDevice();
    const r = await d.db.create("tasks", WORKSPACE, task());
    if (!r.ok) throw new Error("create failed");
    const [row] = await outboxOf(d.db);
    await startResync(internals(d.db), WORKSPACE);
    await applyPage(internals(d.db), {
      workspaceId: WORKSPACE,
      changes: [{ seq: 5, collection: "tasks", recordId: r.id, kind: "state", state: applyMutation(emptyRecordState(), row!.mutation).state }],
      cursor: 5,
      hasMore: false,
      snapshot: true,
    });
    expect((await d.db.get("tasks", r.id))?.pending).toBe(1);
    await applyAcks(internals(d.db), [{ mutationId: row!.mutationId, seq: 0 }]);
    expect((await d.db.get("tasks", r.id))?.pending).toBe(0);
  });
});

describe("rejections", () => {
  test("a rejected edit stays visible until discarded; the outbox no longer holds it", async () => {
    const d = await openDevice();
    const r = await d.db.create("tasks", WORKSPACE, task());
    if (!r.ok) throw new Error("create failed");
    const [create] = await outboxOf(d.db);
    await applyAcks(internals(d.db), [{ mutationId: 1, seq: 1 }]);
    await page(d.db, [echo(create!, 1)], 1);
    await d.db.update("tasks", r.id, { title: "nope" });
    const issue = { path: "", key: "sync.reject.readOnly", params: { role: "viewer" }, message: "read only" };
    await applyRejects(internals(d.db), [{ mutationId: 2, code: "forbidden", issues: [issue] }]);

    expect(await outboxOf(d.db)).toHaveLength(0);
    const rec = await d.db.get("tasks", r.id);
    expect(rec?.fields.title).toBe("nope");
    expect(rec?.rejected).toBe(1);
    expect(await d.db.rejected(WORKSPACE)).toMatchObject([{ mutationId: 2, code: "forbidden", issues: [issue], op: "put", created: false, fields: { title: "nope" } }]);

    await d.db.discardRejected(2);
    expect((await d.db.get("tasks", r.id))?.fields.title).toBe(task().title);
    expect(await d.db.rejected()).toHaveLength(0);
  });

  test("a fix carries the rejected values into the new edit", async () => {
    const d = await openDevice();
    const r = await d.db.create("tasks", WORKSPACE, task());
    if (!r.ok) throw new Error("create failed");
    const [create] = await outboxOf(d.db);
    await applyAcks(internals(d.db), [{ mutationId: 1, seq: 1 }]);
    await page(d.db, [echo(create!, 1)], 1);
    await d.db.update("tasks", r.id, { title: "first", notes: "kept" });
    await applyRejects(internals(d.db), [{ mutationId: 2, code: "invalid", issues: [{ path: "title", key: "validation.invalid", params: {}, message: "" }] }]);
    await d.db.update("tasks", r.id, { title: "fixed" });
    const out = await outboxOf(d.db);
    expect(out).toHaveLength(1);
    expect(out[0]!.mutation.fields).toEqual({ title: "fixed", notes: "kept" });
    // The device saw the server's title under its rejected one: that is the base.
    expect(out[0]!.mutation.base?.title).toBe(create!.mutation.stamp);
    expect(await d.db.rejected()).toHaveLength(0);
    expect((await d.db.get("tasks", r.id))?.rejected).toBe(0);
  });

  test("discarding a rejected create removes a record the server never had", async () => {
    const d = await openDevice();
    const r = await d.db.create("tasks", WORKSPACE, task());
    if (!r.ok) throw new Error("create failed");
    await applyRejects(internals(d.db), [{ mutationId: 1, code: "forbidden", issues: [{ path: "", key: "sync.reject.notMember", params: {}, message: "" }] }]);
    expect((await d.db.get("tasks", r.id))?.rejected).toBe(1);
    await d.db.discardRejected(1);
    expect(await d.db.get("tasks", r.id)).toBeUndefined();
  });

  /** A task the server has (created, acked and echoed), then deleted here and the delete refused. */
  async function refusedDelete() {
    const d = await openDevice();
    const r = await d.db.create("tasks", WORKSPACE, task());
    if (!r.ok) throw new Error("create failed");
    const [create] = await outboxOf(d.db);
    await applyAcks(internals(d.db), [{ mutationId: 1, seq: 1 }]);
    await page(d.db, [echo(create!, 1)], 1);
    await d.db.delete("tasks", r.id);
    await applyRejects(internals(d.db), [{ mutationId: 2, code: "forbidden", issues: [{ path: "", key: "sync.reject.readOnly", params: {}, message: "" }] }]);
    return { d, id: r.id };
  }

  test("a refused delete is listed; discarding it shows the record again as the server has it", async () => {
    const { d, id } = await refusedDelete();
    expect(await d.db.rejected(WORKSPACE)).toMatchObject([{ mutationId: 2, op: "delete", created: false, recordId: id }]);
    expect(await d.db.list("tasks", WORKSPACE)).toHaveLength(0);
    expect(await d.db.discardRejected(2)).toEqual({ ok: true });
    const rec = await d.db.get("tasks", id);
    expect(rec).toMatchObject({ deleted: false, rejected: 0, pending: 0, fields: task() });
    expect(await d.db.list("tasks", WORKSPACE)).toHaveLength(1);
    expect(await d.db.rejected()).toHaveLength(0);
    expect(await outboxOf(d.db)).toHaveLength(0);
  });

  test("retrying a refused delete pushes a new delete; the record stays hidden until the server answers", async () => {
    const { d, id } = await refusedDelete();
    expect(await d.db.retryRejected(2)).toEqual({ ok: true });
    const out = await outboxOf(d.db);
    expect(out).toHaveLength(1);
    expect(out[0]!.mutation).toMatchObject({ op: "delete", author: d.db.clientId });
    expect(out[0]!.mutation.fields).toBeUndefined();
    expect(out[0]!.mutationId).toBeGreaterThan(2);
    expect(await d.db.rejected()).toHaveLength(0);
    expect(await d.db.get("tasks", id)).toMatchObject({ deleted: true, rejected: 0, pending: 1 });
    // Refused again: listed again, and discarding it still brings the record back.
    await applyRejects(internals(d.db), [{ mutationId: out[0]!.mutationId, code: "forbidden", issues: [] }]);
    expect(await d.db.rejected()).toHaveLength(1);
    await d.db.discardRejected(out[0]!.mutationId);
    expect(await d.db.get("tasks", id)).toMatchObject({ deleted: false, rejected: 0, pending: 0 });
  });

  test("an edit of a record whose delete was refused does not hide the refusal", async () => {
    const { d, id } = await refusedDelete();
    await d.db.update("tasks", id, { title: "otro" });
    expect(await d.db.rejected()).toHaveLength(1);
    await d.db.discardRejected(2);
    expect(await d.db.get("tasks", id)).toMatchObject({ deleted: false, rejected: 0, pending: 1, fields: { title: "otro" } });
  });
});

describe("conflicts", () => {
  async function conflicted() {
    const d = await openDevice();
    const id = uuidv7(0);
    const a = "2025-03-01T09:00:00.000Z-0000-aaaaaaaaaaaaaaaa";
    const b = "2025-03-01T09:00:01.000Z-0000-bbbbbbbbbbbbbbbb";
    await page(
      d.db,
      [
        change(1, id, { op: "put", stamp: a, author: OTHER_CLIENT, fields: { title: "old", status: "todo" }, base: {} }),
        change(2, id, { op: "put", stamp: "2025-03-01T09:00:00.500Z-0000-cccccccccccccccc", author: "0c0c0c0c-0000-4000-8000-00000000000c", fields: { title: "lost" }, base: { title: a } }),
        change(3, id, { op: "put", stamp: b, author: "0b0b0b0b-0000-4000-8000-00000000000b", fields: { title: "won" }, base: { title: a } }),
      ],
      3,
    );
    return { d, id };
  }

  test("restoring a losing value writes it back and closes the conflict", async () => {
    const { d, id } = await conflicted();
    const [c] = await d.db.conflicts(WORKSPACE);
    expect(c).toMatchObject({ field: "title", value: "lost", current: "won" });
    expect(c!.at).toBe(Date.parse("2025-03-01T09:00:00.500Z"));
    expect(await d.db.restoreConflict(c!.id)).toEqual({ ok: true });
    expect((await d.db.get("tasks", id))?.fields.title).toBe("lost");
    expect(await d.db.conflicts()).toHaveLength(0);
    const [m] = await outboxOf(d.db);
    expect(m!.mutation).toMatchObject({ op: "put", fields: { title: "lost" }, resolves: [{ field: "title", stamp: c!.stamp }] });
    // The new value replaces the one that won, which the user saw: no new conflict.
    expect(m!.mutation.base?.title).toBe("2025-03-01T09:00:01.000Z-0000-bbbbbbbbbbbbbbbb");
  });

  test("dismissing keeps the current value and closes the conflict", async () => {
    const { d, id } = await conflicted();
    const [c] = await d.db.conflicts(WORKSPACE);
    await d.db.dismissConflict(c!.id);
    expect((await d.db.get("tasks", id))?.fields.title).toBe("won");
    expect(await d.db.conflicts()).toHaveLength(0);
    expect((await outboxOf(d.db))[0]!.mutation).toMatchObject({ op: "resolve", resolves: [{ field: "title", stamp: c!.stamp }] });
  });
});

describe("resync and access", () => {
  test("a resync keeps the outbox and the records until the new snapshot says what is gone", async () => {
    const d = await openDevice();
    const gone = uuidv7(0);
    const kept = uuidv7(1);
    const put = (stamp: string, fields: Record<string, string>): Mutation => ({ op: "put", stamp, author: OTHER_CLIENT, fields, base: {} });
    await page(
      d.db,
      [change(1, gone, put("2025-03-01T09:00:00.000Z-0000-aaaaaaaaaaaaaaaa", { title: "gone", status: "todo" })), change(2, kept, put("2025-03-01T09:00:01.000Z-0000-aaaaaaaaaaaaaaaa", { title: "kept", status: "todo" }))],
      2,
    );
    const local = await d.db.create("tasks", WORKSPACE, task({ title: "offline" }));
    if (!local.ok) throw new Error("create failed");

    await startResync(internals(d.db), WORKSPACE);
    expect(await d.db.cursor(WORKSPACE)).toBe(0);
    expect(await d.db.list("tasks", WORKSPACE)).toHaveLength(3);
    expect(await outboxOf(d.db)).toHaveLength(1);

    const keptState = await d.db.confirmed("tasks", kept);
    const snap = (records: ServerChange[], hasMore: boolean) =>
      applyPage(internals(d.db), { workspaceId: WORKSPACE, changes: records, cursor: 40, hasMore, snapshot: true, ...(hasMore ? { resume: "t1" } : {}) });
    await snap([], true);
    expect((await d.db.list("tasks", WORKSPACE)).length).toBe(3);
    await snap([{ seq: 2, collection: "tasks", recordId: kept, kind: "state", state: keptState! }], false);

    expect((await d.db.list("tasks", WORKSPACE)).map((t) => t.fields.title).sort()).toEqual(["kept", "offline"]);
    expect(await outboxOf(d.db)).toHaveLength(1);
    expect(await d.db.cursor(WORKSPACE)).toBe(40);
  });

  test("losing access to a workspace removes everything of it and nothing else", async () => {
    const d = await openDevice();
    await d.db.create("tasks", WORKSPACE, task());
    await d.db.create("tasks", OTHER_WORKSPACE, task());
    await forgetWorkspace(internals(d.db), OTHER_WORKSPACE);
    expect(await d.db.list("tasks", OTHER_WORKSPACE, { includeDeleted: true })).toHaveLength(0);
    expect(await d.db.list("tasks", WORKSPACE)).toHaveLength(1);
    expect((await outboxOf(d.db)).map((o) => o.workspaceId)).toEqual([WORKSPACE]);
  });
});

describe("every sync transaction checks that the database is still its device's", () => {
  /** Everything of the device database a sync transaction may write, read through a new handle. */
  async function contents(d: { db: ClientDb }) {
    const db = dbOf(d.db);
    return {
      outbox: await db.outbox.toArray(),
      rejected: await db.rejected.toArray(),
      meta: (await db.meta.toArray()).filter((m) => m.key !== "link"),
      tasks: await db.records("tasks").toArray(),
      conflicts: await db.conflicts.toArray(),
    };
  }

  const runs: [string, (dev: ReturnType<typeof internals>, row: OutboxRow) => Promise<unknown>][] = [
    ["applyAcks", (dev, row) => applyAcks(dev, [{ mutationId: row.mutationId, seq: 1 }])],
    ["applyRejects", (dev, row) => applyRejects(dev, [{ mutationId: row.mutationId, code: "invalid", issues: [] }])],
    [
      "applyPage",
      (dev, row) => applyPage(dev, { workspaceId: WORKSPACE, changes: [echo(row, 1)], cursor: 1, hasMore: false, snapshot: false }),
    ],
    ["startResync", (dev) => startResync(dev, WORKSPACE)],
    ["forgetWorkspace", (dev) => forgetWorkspace(dev, WORKSPACE)],
  ];

  for (const [name, run] of runs) {
    test(`${name} on another device's database writes nothing and closes the handle for good`, async () => {
      const d = await openDevice();
      const r = await d.db.create("tasks", WORKSPACE, task());
      if (!r.ok) throw new Error("create failed");
      const row = (await dbOf(d.db).outbox.get(1))!;
      const before = await contents(d);
      // The same transaction with this handle's own client id would write (checked below).
      const stranger = { ...internals(d.db), clientId: OTHER_CLIENT };
      await expect(run(stranger, row)).rejects.toMatchObject({ name: "ReplacedDatabaseError", code: "replaced_database" });
      expect(dbOf(d.db).gone).toBe("replaced");
      await expect(d.db.get("tasks", r.id)).rejects.toThrow();
      const handle = await d.reopen();
      expect(await contents(d)).toEqual(before);
      // Its own device's transaction changes the database.
      await run(internals(handle), row);
      expect(await contents(d)).not.toEqual(before);
    });
  }
});
