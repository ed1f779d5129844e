// Leaving a page's form that holds changes asks first. While `when` is true, a navigation inside the
// app (a link, Back, the sidebar) is held and "¿Descartar los cambios?" (DiscardChangesDialog) asked:
// "Descartar" goes on, "Seguir editando" stays; and closing or reloading the tab gets the browser's
// own question (beforeunload, registered only while there are changes). A navigation the form makes
// itself (after saving, its Cancel button) passes `ignoreBlocker: true`. Signing out (or deleting the
// account) is the user's explicit choice and reloads the page at /signin after wiping the device: it
// announces itself (SIGN_OUT_EVENT) and the guard stands down, so the browser does not ask "leave
// the site?" about a page whose data is already gone.
import { useBlocker } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { SIGN_OUT_EVENT } from "../auth/signOut";
import { DiscardChangesDialog } from "./Dialog";

export function LeaveGuard({ when }: { when: boolean }) {
  const [signingOut, setSigningOut] = useState(false);
  useEffect(() => {
    const stand = () => setSigningOut(true);
    window.addEventListener(SIGN_OUT_EVENT, stand);
    return () => window.removeEventListener(SIGN_OUT_EVENT, stand);
  }, []);
  const blocker = useBlocker({ shouldBlockFn: () => true, disabled: !when || signingOut, enableBeforeUnload: true, withResolver: true });
  return <DiscardChangesDialog open={blocker.status === "blocked"} onKeep={() => blocker.reset?.()} onDiscard={() => blocker.proceed?.()} />;
}
