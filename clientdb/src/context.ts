// The device database's React context, alone in a module without Dexie: an app can render the
// provider (with null) at once and load the database engine later, without remounting what is inside.
import { createContext, createElement, useContext, type ReactNode } from "react";
import type { ClientDb } from "./clientdb";

const ClientDbContext = createContext<ClientDb | null>(null);

/** Makes a device database available to the hooks (null while signed out or not open yet). */
export function ClientDbProvider({ db, children }: { db: ClientDb | null; children?: ReactNode }) {
  return createElement(ClientDbContext.Provider, { value: db }, children);
}

/** The device database of the signed-in user, or null. */
export function useClientDb(): ClientDb | null {
  return useContext(ClientDbContext);
}
