// A menu of actions opened by a button (row actions, the user menu): arrow keys move, Enter picks,
// typing a letter jumps, Escape closes and gives focus back to the button. On Radix UI.
import { DropdownMenu as Menu } from "radix-ui";
import type { ReactElement, ReactNode } from "react";
import { cx } from "./cx";
import styles from "./Overlay.module.css";

export interface DropdownMenuProps {
  /** The button that opens the menu (IconButton or Button). */
  trigger: ReactElement;
  children: ReactNode;
  align?: "start" | "center" | "end";
  side?: "top" | "right" | "bottom" | "left";
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** Names the menu for screen readers when the trigger's name is not enough. */
  label?: string;
  className?: string;
}

export function DropdownMenu({ trigger, children, align = "end", side = "bottom", open, onOpenChange, label, className }: DropdownMenuProps) {
  return (
    // Not modal: a modal menu hides the rest of the page with aria-hidden while focus may still
    // reach it (axe: aria-hidden-focus). Focus still moves into the menu; Escape and a click
    // outside close it.
    <Menu.Root {...(open !== undefined ? { open } : {})} onOpenChange={onOpenChange} modal={false}>
      <Menu.Trigger asChild>{trigger}</Menu.Trigger>
      <Menu.Portal>
        <Menu.Content className={cx(styles.menu, className)} align={align} side={side} sideOffset={4} collisionPadding={8} aria-label={label}>
          {children}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}

export interface MenuItemProps {
  onSelect?: (event: Event) => void;
  /** A lucide icon at size 16. */
  icon?: ReactNode;
  /** A destructive action (red). */
  danger?: boolean;
  disabled?: boolean;
  children: ReactNode;
  /** Render the child (a <Link>) as the item: <MenuItem asChild><Link to="/profile">…</Link></MenuItem>. */
  asChild?: boolean;
  "data-testid"?: string;
}

export function MenuItem({ onSelect, icon, danger = false, disabled, children, asChild, ...rest }: MenuItemProps) {
  return (
    <Menu.Item
      className={cx(styles.menuItem, danger && styles.menuItemDanger)}
      onSelect={onSelect}
      disabled={disabled}
      asChild={asChild}
      data-testid={rest["data-testid"]}
    >
      {asChild ? (
        children
      ) : (
        <>
          {icon && (
            <span className={styles.menuIcon} aria-hidden="true">
              {icon}
            </span>
          )}
          {children}
        </>
      )}
    </Menu.Item>
  );
}

export function MenuSeparator() {
  return <Menu.Separator className={styles.separator} />;
}

export function MenuLabel({ children }: { children: ReactNode }) {
  return <Menu.Label className={styles.menuLabel}>{children}</Menu.Label>;
}
