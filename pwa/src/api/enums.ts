// The enumerations (/api/v1/enums and /api/v1/admin/enums): the admin screen's queries and
// mutations, and the device cache's refresh for the pickers (clientdb's useEnums reads the cache,
// so pickers work offline; useEnumOptions refreshes it when online).
import {
  enumLabel,
  refreshEnums,
  useClientDb,
  useEnums,
  type ClientDb,
  type EnumQuery,
  type EnumValue,
} from "@patrimonio/clientdb";
import type { Enumeration, EnumCreateRequest, EnumReorderRequest, EnumUpdateRequest } from "@patrimonio/shared-schema";
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { useLanguage } from "../i18n/useLanguage";
import { useApi } from "./ApiProvider";
import { API_BASE_URL, type ApiClient } from "./client";

export type { EnumValue } from "@patrimonio/clientdb";

/** A type with how many values (and active ones) it has and its levels (GET /enums/types). */
export interface EnumType {
  type: string;
  count: number;
  active: number;
  levels: string[];
}

/** The filter of GET /enums/ (and of the /admin/enums search params). */
export interface EnumFilter {
  type?: string;
  parentId?: number;
  levels?: readonly string[];
}

/** One change of the audit log (GET /admin/enums/audit). */
export interface EnumAuditEntry {
  id: number;
  enumId: number;
  action: "create" | "update" | "deactivate" | "activate" | "reorder";
  actorId?: string;
  actorEmail: string;
  at: string;
  before: Enumeration | null;
  after: Enumeration;
}

export const enumKeys = {
  all: ["enums"] as const,
  types: ["enums", "types"] as const,
  list: (f: EnumFilter) => ["enums", "list", f.type ?? "", f.parentId ?? 0, (f.levels ?? []).join(",")] as const,
  one: (id: number) => ["enums", "id", id] as const,
  audit: (enumId?: number) => ["enums", "audit", enumId ?? 0] as const,
};

function listPath(f: EnumFilter): string {
  const q = new URLSearchParams();
  if (f.type) q.set("type", f.type);
  if (f.parentId) q.set("parentId", String(f.parentId));
  if (f.levels?.length) q.set("levels", f.levels.join(","));
  const s = q.toString();
  return `/enums/${s ? `?${s}` : ""}`;
}

export const enumEndpoints = {
  types: (api: ApiClient, signal?: AbortSignal) => api.get<EnumType[]>("/enums/types", signal ? { signal } : {}),
  list: (api: ApiClient, f: EnumFilter, signal?: AbortSignal) => api.get<Enumeration[]>(listPath(f), signal ? { signal } : {}),
  one: (api: ApiClient, id: number) => api.get<Enumeration>(`/enums/id/${id}`),
  create: (api: ApiClient, body: EnumCreateRequest) => api.post<Enumeration>("/admin/enums", body),
  update: (api: ApiClient, id: number, body: EnumUpdateRequest) => api.request<Enumeration>("PUT", `/admin/enums/${id}`, { body }),
  setActive: (api: ApiClient, id: number, active: boolean) =>
    api.post<Enumeration>(`/admin/enums/${id}/${active ? "activate" : "deactivate"}`),
  reorder: (api: ApiClient, body: EnumReorderRequest) => api.post<Enumeration[]>("/admin/enums/reorder", body),
  audit: (api: ApiClient, enumId?: number) => api.get<EnumAuditEntry[]>(`/admin/enums/audit${enumId ? `?enumId=${enumId}` : ""}`),
};

export function enumTypesQuery(api: ApiClient) {
  return queryOptions({ queryKey: enumKeys.types, queryFn: ({ signal }) => enumEndpoints.types(api, signal) });
}

export function enumListQuery(api: ApiClient, f: EnumFilter) {
  return queryOptions({
    queryKey: enumKeys.list(f),
    queryFn: ({ signal }) => enumEndpoints.list(api, f, signal),
    enabled: Boolean(f.type || f.parentId),
    placeholderData: keepPreviousData,
  });
}

export function useEnumTypes() {
  return useQuery(enumTypesQuery(useApi()));
}

export function useEnumList(f: EnumFilter) {
  return useQuery(enumListQuery(useApi(), f));
}

/** One value (e.g. the parent shown in the admin breadcrumb). */
export function useEnumById(id: number | undefined) {
  const api = useApi();
  return useQuery({ queryKey: enumKeys.one(id ?? 0), queryFn: () => enumEndpoints.one(api, id!), enabled: id !== undefined && id > 0 });
}

export function useEnumAudit(enumId?: number) {
  const api = useApi();
  return useQuery({ queryKey: enumKeys.audit(enumId), queryFn: () => enumEndpoints.audit(api, enumId), enabled: enumId !== undefined });
}

// ---------------------------------------------------------------- the device cache

/** A refresh skips the server when the cache was checked less than this long ago. */
const REFRESH_EVERY_MS = 5 * 60 * 1000;
/** What a picker opening (a mount) or the tab coming back accepts: a value an admin just added is
 * offered at once, while pickers mounting together still make one conditional request (ETag: an
 * unchanged list is a 304 without a body). */
export const MOUNT_REFRESH_MS = 10 * 1000;
const lastRefresh = new WeakMap<ClientDb, { at: number; running?: Promise<unknown> }>();

/** Refreshes the device cache (deduplicated while one runs) unless it was checked less than maxAge
 * ms ago (force: whatever its age); never throws (offline keeps the cache). */
export async function refreshDeviceEnums(db: ClientDb, language: string, force = false, maxAge = REFRESH_EVERY_MS): Promise<void> {
  const last = lastRefresh.get(db);
  if (last?.running) return void (await last.running.catch(() => undefined));
  if (!force && last && Date.now() - last.at < maxAge) return;
  const running = refreshEnums(db, {
    fetch: (input, init) => globalThis.fetch(input, init),
    url: `${API_BASE_URL}/enums/`,
    headers: { "Accept-Language": language },
  });
  lastRefresh.set(db, { at: last?.at ?? 0, running });
  try {
    await running;
    lastRefresh.set(db, { at: Date.now() });
  } catch {
    lastRefresh.set(db, { at: last?.at ?? 0 }); // offline or signed out: try again next time
  }
}

/** Keeps the device cache fresh while mounted: when mounted and when the tab becomes visible again
 * (unless checked in the last MOUNT_REFRESH_MS), and when the browser comes back online. */
export function useEnumsRefresh(): void {
  const db = useClientDb();
  const { language } = useLanguage();
  useEffect(() => {
    if (!db) return;
    const online = () => typeof navigator === "undefined" || navigator.onLine !== false;
    const soon = () => {
      if (online() && document.visibilityState !== "hidden") void refreshDeviceEnums(db, language, false, MOUNT_REFRESH_MS);
    };
    const back = () => void refreshDeviceEnums(db, language, true);
    soon();
    window.addEventListener("online", back);
    document.addEventListener("visibilitychange", soon);
    return () => {
      window.removeEventListener("online", back);
      document.removeEventListener("visibilitychange", soon);
    };
  }, [db, language]);
}

/** A picker option built from a cached value: value is the code (or the id as text). */
export interface EnumOption {
  value: string;
  label: string;
  hint?: string;
  id: number;
  code: string;
}

/**
 * The options a picker offers for a type (under parentId), from the device cache, in the active
 * language and sorted as the list is; refreshes the cache when online. undefined while loading.
 * valueKind "code" (default: countries "ES", provinces "ES-M") or "id" (categories: "101").
 */
export function useEnumOptions(
  type: string | undefined,
  parentId?: number,
  query: EnumQuery & { valueKind?: "code" | "id" } = {},
): EnumOption[] | undefined {
  useEnumsRefresh();
  const { language } = useLanguage();
  const { valueKind = "code", ...rest } = query;
  const values = useEnums(type, parentId, rest);
  return useMemo(
    () =>
      values?.map((v: EnumValue) => ({
        value: valueKind === "id" ? String(v.id) : v.code,
        label: enumLabel(v, language),
        hint: v.code,
        id: v.id,
        code: v.code,
      })),
    [values, language, valueKind],
  );
}

// ---------------------------------------------------------------- admin mutations

/** After a change: the admin screen's queries refetch and this device's cache refreshes at once. */
function useAfterChange() {
  const queryClient = useQueryClient();
  const db = useClientDb();
  const { language } = useLanguage();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: enumKeys.all });
    if (db) await refreshDeviceEnums(db, language, true);
  };
}

export function useCreateEnum() {
  const api = useApi();
  const after = useAfterChange();
  return useMutation({ mutationFn: (body: EnumCreateRequest) => enumEndpoints.create(api, body), onSuccess: after });
}

export function useUpdateEnum() {
  const api = useApi();
  const after = useAfterChange();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: EnumUpdateRequest }) => enumEndpoints.update(api, id, body),
    onSuccess: after,
  });
}

export function useSetEnumActive() {
  const api = useApi();
  const after = useAfterChange();
  return useMutation({
    mutationFn: ({ id, active }: { id: number; active: boolean }) => enumEndpoints.setActive(api, id, active),
    onSuccess: after,
  });
}

export function useReorderEnums() {
  const api = useApi();
  const after = useAfterChange();
  return useMutation({ mutationFn: (body: EnumReorderRequest) => enumEndpoints.reorder(api, body), onSuccess: after });
}
