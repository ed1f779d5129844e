// sonner itself (its toaster and its toast store, ~10 KB gzip), loaded by toast.tsx with the first
// toast of the page instead of with the app: most pages never show one.
import { Toaster, toast, type ExternalToast } from "sonner";
import type { ReactNode } from "react";
import type { ToastKind } from "./toast";

export { Toaster };

/** Shows (or, with an existing options.id, updates) a toast of the given kind. */
export function show(kind: ToastKind, message: ReactNode, options: ExternalToast): void {
  switch (kind) {
    case "default":
      toast(message, options);
      return;
    case "success":
      toast.success(message, options);
      return;
    case "info":
      toast.info(message, options);
      return;
    case "warning":
      toast.warning(message, options);
      return;
    case "error":
      toast.error(message, options);
      return;
    case "loading":
      toast.loading(message, options);
      return;
  }
}

export function dismiss(id?: string | number): void {
  toast.dismiss(id);
}
