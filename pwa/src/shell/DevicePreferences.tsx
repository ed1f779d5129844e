// The device's language and theme switches, side by side: in the top bar on wide screens, in the
// sidebar drawer on phones (see AppShell), in the header of the plain layout.
import { cx } from "../ui/cx";
import styles from "./DevicePreferences.module.css";
import { LanguageSwitch } from "./LanguageSwitch";
import { ThemeSwitch } from "./ThemeSwitch";

export function DevicePreferences({ className }: { className?: string }) {
  return (
    <div className={cx(styles.preferences, className)} data-testid="device-preferences">
      <LanguageSwitch />
      <ThemeSwitch />
    </div>
  );
}
