// The sync test page (e2e build only, never in pwa/dist): the signed-in user's device database
// through the REAL @patrimonio/clientdb and the app's own DeviceSync provider (one database per
// user, the SyncClient in the Web Locks leader tab, the socket to /api/v1/sync of this origin),
// until the asset screens exist. It shows the records of the personal workspace (ids, fields,
// pending / rejected / deleted flags), the conflicts with their losing values and the rejected
// mutations, and has controls that write ONLY through ClientDb commands. sync.spec.ts drives it
// through support/sync-page.ts. Its labels are English only: no user ever sees this page.
import "../../src/zodConfig";
// The record schemas with the page (the app loads them with its writing screens), so the commands
// work once the test takes the network away.
import "@patrimonio/clientdb/validation";
import {
  lockName,
  useClientDb,
  useConflicts,
  useRecords,
  useRejected,
  type ClientDb,
  type CommandResult,
  type EntityOf,
  type Patch,
  type SyncEvent,
  type SyncClientOptions,
} from "@patrimonio/clientdb";
import { COLLECTION_NAMES, type CollectionName } from "@patrimonio/shared-schema";
import { QueryClientProvider } from "@tanstack/react-query";
import { useState, useSyncExternalStore, type FormEvent, type ReactNode } from "react";
import { createRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { createApiClient } from "../../src/api/client";
import type { Me } from "../../src/api/types";
import { loadMe } from "../../src/auth/session";
import "../../src/i18n/bundled"; // both languages for createI18n
import { activeLanguage, bindDocumentLanguage, createI18n } from "../../src/i18n/i18n";
import { createQueryClient } from "../../src/query/queryClient";
import { DeviceSync } from "../../src/sync/DeviceSync";
import { SyncStatus } from "../../src/sync/SyncStatus";
import { SYNC_PAGE_MARKER } from "./marker";

// ---------------------------------------------------------------- the sync client's role in this tab

type Role = "follower" | "leader";

/** Whether this tab's SyncClient leads (holds the socket), from its events. */
const roleStore = {
  role: "follower" as Role,
  socket: "none" as "none" | "open" | "closed",
  listeners: new Set<() => void>(),
  set(next: Partial<{ role: Role; socket: "none" | "open" | "closed" }>) {
    Object.assign(this, next);
    for (const l of this.listeners) l();
  },
  subscribe(listener: () => void) {
    roleStore.listeners.add(listener);
    return () => roleStore.listeners.delete(listener);
  },
};

function onSyncEvent(event: SyncEvent): void {
  if (event.type === "leader") roleStore.set({ role: "leader" });
  if (event.type === "follower") roleStore.set({ role: "follower", socket: "none" });
  if (event.type === "welcome") roleStore.set({ socket: "open" });
  if (event.type === "close") roleStore.set({ socket: "closed" });
}

/** Stable (DeviceSync restarts its client when the options object changes). */
const CLIENT_OPTIONS: Partial<SyncClientOptions> = { onEvent: onSyncEvent };

function useRole() {
  const role = useSyncExternalStore(roleStore.subscribe, () => roleStore.role);
  const socket = useSyncExternalStore(roleStore.subscribe, () => roleStore.socket);
  return { role, socket };
}

// ---------------------------------------------------------------- helpers

/** JSON with sorted object keys: equal values give equal strings on every device. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]]));
  });
}

interface Outcome {
  seq: number;
  text: string;
}

/** Runs a command and reports its result (or the error it threw) as JSON. */
function useCommands() {
  const [outcome, setOutcome] = useState<Outcome>({ seq: 0, text: "" });
  const run = (command: () => Promise<CommandResult<object>>) => {
    const report = (value: unknown) => setOutcome((prev) => ({ seq: prev.seq + 1, text: JSON.stringify(value) }));
    command().then(report, (err: unknown) => report({ ok: false, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) }));
  };
  return { outcome, run };
}

type Run = ReturnType<typeof useCommands>["run"];

// ---------------------------------------------------------------- the page

function CollectionRecords({ db, collection, workspaceId, run }: { db: ClientDb; collection: CollectionName; workspaceId: string; run: Run }) {
  const records = useRecords(collection, workspaceId, { includeDeleted: true });
  return (
    <section data-testid="collection" data-collection={collection} data-loaded={records !== undefined}>
      {records !== undefined && records.length > 0 && <h2>{collection}</h2>}
      <ul>
        {(records ?? []).map((r) => (
          <li
            key={r.id}
            data-testid="record"
            data-collection={collection}
            data-id={r.id}
            data-pending={r.pending}
            data-rejected={r.rejected}
            data-deleted={r.deleted}
            data-conflicts={r.conflicts}
          >
            <code data-testid="record-id">{r.id}</code> <code data-testid="record-fields">{canonical(r.fields)}</code>{" "}
            <span>
              pending {r.pending} · rejected {r.rejected} · conflicts {r.conflicts}
              {r.deleted ? " · deleted" : ""}
            </span>{" "}
            {r.deleted ? (
              <button type="button" onClick={() => run(() => db.restore(collection, r.id))}>
                Restore record
              </button>
            ) : (
              <button type="button" onClick={() => run(() => db.delete(collection, r.id))}>
                Delete
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Conflicts({ db, workspaceId, run }: { db: ClientDb; workspaceId: string; run: Run }) {
  const conflicts = useConflicts(workspaceId);
  return (
    <section data-testid="conflicts" data-loaded={conflicts !== undefined}>
      <h2>Conflicts</h2>
      <ul>
        {(conflicts ?? []).map((c) => (
          <li
            key={c.id}
            data-testid="conflict"
            data-id={c.id}
            data-collection={c.collection}
            data-record-id={c.recordId}
            data-field={c.field}
          >
            {c.collection}/{c.recordId} <code>{c.field}</code>: lost <code data-testid="conflict-value">{canonical(c.value)}</code>, shown{" "}
            <code data-testid="conflict-current">{canonical(c.current)}</code>{" "}
            <button type="button" onClick={() => run(() => db.restoreConflict(c.id))}>
              Restore losing value
            </button>{" "}
            <button type="button" onClick={() => run(() => db.dismissConflict(c.id))}>
              Dismiss
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Rejected({ db, workspaceId, run }: { db: ClientDb; workspaceId: string; run: Run }) {
  const rejected = useRejected(workspaceId);
  return (
    <section data-testid="rejected-list" data-loaded={rejected !== undefined}>
      <h2>Rejected</h2>
      <ul>
        {(rejected ?? []).map((r) => (
          <li key={r.mutationId} data-testid="rejected" data-record-id={r.recordId} data-code={r.code}>
            {r.op} {r.collection}/{r.recordId}: {r.code} <code>{canonical(r.issues)}</code>{" "}
            <button type="button" onClick={() => run(() => db.discardRejected(r.mutationId))}>
              Discard
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function parseJson(text: string): unknown {
  return JSON.parse(text) as unknown;
}

function Commands({ db, workspaceId, run }: { db: ClientDb; workspaceId: string; run: Run }) {
  const [collection, setCollection] = useState<CollectionName>("assets");
  const [fields, setFields] = useState("{}");
  const [recordId, setRecordId] = useState("");
  const [field, setField] = useState("");
  const [value, setValue] = useState("");

  const create = (event: FormEvent) => {
    event.preventDefault();
    run(() => db.create(collection, workspaceId, parseJson(fields) as EntityOf<CollectionName>));
  };
  const update = (event: FormEvent) => {
    event.preventDefault();
    run(() => db.update(collection, recordId, { [field]: parseJson(value) } as Patch<CollectionName>));
  };

  return (
    <section>
      <label>
        Collection{" "}
        <select value={collection} onChange={(e) => setCollection(e.target.value as CollectionName)}>
          {COLLECTION_NAMES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <form onSubmit={create}>
        <label>
          Fields (JSON) <textarea value={fields} onChange={(e) => setFields(e.target.value)} />
        </label>
        <button type="submit">Create</button>
      </form>
      <form onSubmit={update}>
        <label>
          Record id <input value={recordId} onChange={(e) => setRecordId(e.target.value)} />
        </label>
        <label>
          Field <input value={field} onChange={(e) => setField(e.target.value)} />
        </label>
        <label>
          Value (JSON) <input value={value} onChange={(e) => setValue(e.target.value)} />
        </label>
        <button type="submit">Update</button>
      </form>
    </section>
  );
}

function SyncTestPage({ me }: { me: Me }) {
  const db = useClientDb();
  const { role, socket } = useRole();
  const { outcome, run } = useCommands();
  const workspace = me.workspaces.find((w) => w.kind === "personal") ?? me.workspaces[0];
  if (!workspace) return <p data-testid="no-workspace">No workspace.</p>;
  return (
    <main
      data-page={SYNC_PAGE_MARKER}
      data-testid="sync-page"
      data-ready={db !== null}
      data-role={role}
      data-socket={socket}
      data-client-id={db?.clientId ?? ""}
      data-db-name={db?.name ?? ""}
      data-lock-name={db ? lockName(db.name) : ""}
      data-workspace-id={workspace.id}
    >
      <h1>Sync test page</h1>
      <SyncStatus />
      {db !== null && (
        <>
          <Commands db={db} workspaceId={workspace.id} run={run} />
          <output data-testid="result" data-seq={outcome.seq}>
            {outcome.text}
          </output>
          {COLLECTION_NAMES.map((c) => (
            <CollectionRecords key={c} db={db} collection={c} workspaceId={workspace.id} run={run} />
          ))}
          <Conflicts db={db} workspaceId={workspace.id} run={run} />
          <Rejected db={db} workspaceId={workspace.id} run={run} />
        </>
      )}
    </main>
  );
}

// ---------------------------------------------------------------- start

const i18n = createI18n();
bindDocumentLanguage(i18n, document.documentElement);
const api = createApiClient({ language: () => activeLanguage(i18n) });
const queryClient = createQueryClient();

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");
const root = createRoot(container);

function render(node: ReactNode) {
  root.render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>{node}</QueryClientProvider>
    </I18nextProvider>,
  );
}

// The app's service worker: it precaches this page too (e2e build), so a reload works offline.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((err: unknown) => console.error("No service worker.", err));
}

// Who is signed in: GET /api/v1/me, or offline the device copy the app keeps (auth/session.ts).
loadMe(api).then(
  (me) => {
    if (me === null) {
      render(<p data-testid="signed-out">Signed out.</p>);
      return;
    }
    render(
      <DeviceSync user={me.user} workspaceIds={me.workspaces.map((w) => w.id)} clientOptions={CLIENT_OPTIONS}>
        <SyncTestPage me={me} />
      </DeviceSync>,
    );
  },
  (err: unknown) => render(<p data-testid="load-error">{String(err)}</p>),
);
