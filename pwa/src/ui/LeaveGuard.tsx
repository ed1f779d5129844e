// Leaving a page's form that holds changes asks first. While `when` is true, a navigation inside the
// app (a link, Back, the sidebar) is held and "¿Descartar los cambios?" (DiscardChangesDialog) asked:
// "Descartar" goes on, "Seguir editando" stays; and closing or reloading the tab gets the browser's
// own question (beforeunload, registered only while there are changes). A navigation the form makes
// itself (after saving, its Cancel button) passes `ignoreBlocker: true`.
import { useBlocker } from "@tanstack/react-router";
import { DiscardChangesDialog } from "./Dialog";

export function LeaveGuard({ when }: { when: boolean }) {
  const blocker = useBlocker({ shouldBlockFn: () => true, disabled: !when, enableBeforeUnload: true, withResolver: true });
  return <DiscardChangesDialog open={blocker.status === "blocked"} onKeep={() => blocker.reset?.()} onDiscard={() => blocker.proceed?.()} />;
}
