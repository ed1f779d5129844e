import { useEffect } from "react";
import { SESSION_CHANNEL } from "./signOut";
import { SIGN_IN_PATH } from "./guards";

function leavePage(path: string) {
  window.location.replace(path);
}

/** When another tab signs out, this one leaves too (its device data is already gone). */
export function SessionSync({ leave = leavePage }: { leave?: (path: string) => void }) {
  useEffect(() => {
    if (typeof BroadcastChannel !== "function") return;
    const channel = new BroadcastChannel(SESSION_CHANNEL);
    channel.onmessage = (event: MessageEvent<{ type?: string }>) => {
      if (event.data?.type === "signed-out") leave(SIGN_IN_PATH);
    };
    return () => channel.close();
  }, [leave]);
  return null;
}
