// Installs the re-verification dialog as the API client's handler: when a call answers
// "reverification_required", the dialog opens; once the user proves who they are, the client sends
// the call again. Screens can also ask for a proof up front (useReverify).
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useApi } from "../../api/ApiProvider";
import { useMe } from "../../api/queries";
import { ReverifyDialog } from "./ReverifyDialog";

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

  useEffect(() => api.setReverificationHandler(requestProof), [api, requestProof]);

  const value = useMemo(() => ({ requestProof }), [requestProof]);
  return (
    <ReverifyContext.Provider value={value}>
      {children}
      {open && <ReverifyDialog user={me?.user} onDone={() => finish(true)} onCancel={() => finish(false)} />}
    </ReverifyContext.Provider>
  );
}

export function useReverify(): ReverifyState {
  const state = useContext(ReverifyContext);
  if (!state) throw new Error("useReverify must be used inside <ReverifyProvider>");
  return state;
}
