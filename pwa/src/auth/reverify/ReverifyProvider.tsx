// Installs the re-verification dialog as the API client's handler: when a call answers
// "reverification_required", the dialog opens; once the user proves who they are, the client sends
// the call again. Screens can also ask for a proof up front (useReverify).
// The dialog (its form, the kit's Dialog on Radix, passkeys) loads when it is first needed: it is
// not part of the first page.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useApi } from "../../api/ApiProvider";
import { useMe } from "../../api/queries";
import type { ReverifyDialog as ReverifyDialogComponent, ReverifyDialogProps } from "./ReverifyDialog";

let dialogLoaded: typeof ReverifyDialogComponent | null = null;
let dialogLoading: Promise<typeof ReverifyDialogComponent> | null = null;

/** Loads the dialog once; a failed load (offline before its chunk was cached) may be tried again. */
function loadDialog(): Promise<typeof ReverifyDialogComponent> {
  dialogLoading ??= import("./ReverifyDialog").then(
    (module) => (dialogLoaded = module.ReverifyDialog),
    (error: unknown) => {
      dialogLoading = null;
      throw error;
    },
  );
  return dialogLoading;
}

/** The dialog once its code is in; if it cannot load, the proof is cancelled (the call fails as refused). */
function LazyReverifyDialog(props: ReverifyDialogProps) {
  const [Dialog, setDialog] = useState(() => dialogLoaded);
  const { onCancel } = props;
  useEffect(() => {
    if (Dialog) return;
    let cancelled = false;
    loadDialog().then(
      (component) => {
        if (!cancelled) setDialog(() => component);
      },
      (error: unknown) => {
        console.error("The re-verification dialog could not be loaded.", error);
        if (!cancelled) onCancel();
      },
    );
    return () => {
      cancelled = true;
    };
  }, [Dialog, onCancel]);
  return Dialog ? <Dialog {...props} /> : null;
}

interface ReverifyState {
  /** Opens the dialog; resolves true once the user proved who they are, false if they cancelled. */
  requestProof: () => Promise<boolean>;
}

const ReverifyContext = createContext<ReverifyState | null>(null);

export function ReverifyProvider({ children }: { children: ReactNode }) {
  const api = useApi();
  const { data: me } = useMe();
  const [open, setOpen] = useState(false);
  const pending = useRef<((proven: boolean) => void)[]>([]);

  const requestProof = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        pending.current.push(resolve);
        setOpen(true);
      }),
    [],
  );

  const finish = useCallback((proven: boolean) => {
    setOpen(false);
    const waiting = pending.current;
    pending.current = [];
    for (const resolve of waiting) resolve(proven);
  }, []);

  const finishProven = useCallback(() => finish(true), [finish]);
  const finishCancelled = useCallback(() => finish(false), [finish]);

  useEffect(() => api.setReverificationHandler(requestProof), [api, requestProof]);

  const value = useMemo(() => ({ requestProof }), [requestProof]);
  return (
    <ReverifyContext.Provider value={value}>
      {children}
      {open && <LazyReverifyDialog user={me?.user} onDone={finishProven} onCancel={finishCancelled} />}
    </ReverifyContext.Provider>
  );
}

export function useReverify(): ReverifyState {
  const state = useContext(ReverifyContext);
  if (!state) throw new Error("useReverify must be used inside <ReverifyProvider>");
  return state;
}
