// The user's avatar: the profile image when there is one (GET /api/v1/users/avatar, a 256-pixel
// square), the initials otherwise. The image URL changes after every upload, so a new image shows
// at once everywhere.
import { useSyncExternalStore } from "react";
import type { User } from "../api/types";
import styles from "./UserAvatar.module.css";

let version = 0;
const listeners = new Set<() => void>();

/** Call after uploading or removing the image: every avatar reloads it. */
export function avatarChanged(): void {
  version += 1;
  for (const listener of listeners) listener();
}

function useAvatarVersion(): number {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => version,
  );
}

export function initialsOf(user: Pick<User, "firstName" | "lastName" | "email">): string {
  const parts = [user.firstName, user.lastName].filter((p): p is string => !!p && p.trim() !== "");
  const letters = parts.length > 0 ? parts.map((p) => p.trim()[0]) : [user.email[0]];
  return letters.join("").slice(0, 2).toUpperCase();
}

export function UserAvatar({ user, size = 34, className }: { user: User; size?: number; className?: string }) {
  const v = useAvatarVersion();
  const style = { width: size, height: size, fontSize: Math.round(size * 0.38) };
  return (
    <span className={[styles.avatar, className].filter(Boolean).join(" ")} style={style} aria-hidden="true" data-testid="user-avatar">
      {user.hasAvatar ? <img className={styles.image} src={`/api/v1/users/avatar?v=${v}`} alt="" width={size} height={size} /> : initialsOf(user)}
    </span>
  );
}
