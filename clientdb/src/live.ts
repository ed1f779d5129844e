// useLive: a live query for a screen, like dexie-react-hooks' useLiveQuery, without importing Dexie
// (rows.ts says why): the query runs through the handle's own live source, and nothing runs while
// there is no database (the hook then answers undefined). As with useLiveQuery, the last result is
// kept while a query with new deps has not answered yet (never across databases), and an error the
// query ends with is thrown during render (for the nearest error boundary).
import { useEffect, useState } from "react";
import type { ClientDb } from "./clientdb";
import { internals } from "./internal";

interface Answer<T> {
  handle: ClientDb;
  result: T | undefined;
  error: unknown;
}

export function useLive<T>(handle: ClientDb | null, querier: () => Promise<T>, deps: readonly unknown[]): T | undefined {
  const [answer, setAnswer] = useState<Answer<T> | null>(null);
  useEffect(() => {
    if (handle === null) return;
    const subscription = internals(handle).live.query(
      querier,
      (value) => setAnswer((a) => (a?.handle === handle && a.error === null && a.result === value ? a : { handle, result: value, error: null })),
      (err) => setAnswer((a) => (a?.handle === handle && a.error === err ? a : { handle, result: a?.handle === handle ? a.result : undefined, error: err })),
    );
    return () => subscription.unsubscribe();
    // The caller's deps decide when the query is made again (as with useLiveQuery).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [handle, ...deps]);
  if (handle === null || answer === null || answer.handle !== handle) return undefined;
  if (answer.error !== null) throw answer.error;
  return answer.result;
}
