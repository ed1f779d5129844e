// Where the user menu goes in a bar. The avatar shows at once; the menu's code (Radix's menu and its
// positioning) is fetched when the pointer or the focus reaches the avatar, and the menu opens as soon
// as it has loaded if it was asked for before (a tap, Enter, Space or the down arrow). Pages that are
// only looked at never download it.
import { lazy, Suspense, useState, type KeyboardEvent } from "react";
import type { User } from "../api/types";
import { AvatarButton } from "./Avatar";

const loadUserMenu = () => import("./UserMenu");
const UserMenu = lazy(() => loadUserMenu().then((module) => ({ default: module.UserMenu })));

const OPENING_KEYS = new Set(["Enter", " ", "ArrowDown"]);

export function UserMenuSlot({ user, minimal = false }: { user: User; minimal?: boolean }) {
  const [opened, setOpened] = useState<"pointer" | "keyboard" | null>(null);
  if (opened !== null) {
    return (
      <Suspense fallback={<AvatarButton user={user} aria-busy={true} />}>
        <UserMenu user={user} minimal={minimal} initiallyOpen={opened} />
      </Suspense>
    );
  }
  const prefetch = () => void loadUserMenu().catch(() => undefined);
  return (
    <AvatarButton
      user={user}
      onPointerEnter={prefetch}
      onFocus={prefetch}
      onClick={() => setOpened("pointer")}
      onKeyDown={(event: KeyboardEvent<HTMLButtonElement>) => {
        if (!OPENING_KEYS.has(event.key)) return;
        event.preventDefault();
        setOpened("keyboard");
      }}
    />
  );
}
