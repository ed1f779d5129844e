// Non-modal content anchored to a button (a filter panel, an explanation): Escape or a click
// outside closes it and focus returns to the button. On Radix UI.
import { Popover as RadixPopover } from "radix-ui";
import type { ReactElement, ReactNode } from "react";
import { cx } from "./cx";
import styles from "./Overlay.module.css";

export interface PopoverProps {
  trigger: ReactElement;
  children: ReactNode;
  /** Names the popover (role dialog) for screen readers. */
  label: string;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  align?: "start" | "center" | "end";
  side?: "top" | "right" | "bottom" | "left";
  className?: string;
}

export function Popover({ trigger, children, label, open, onOpenChange, align = "center", side = "bottom", className }: PopoverProps) {
  return (
    <RadixPopover.Root {...(open !== undefined ? { open } : {})} onOpenChange={onOpenChange}>
      <RadixPopover.Trigger asChild>{trigger}</RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content className={cx(styles.popover, className)} align={align} side={side} sideOffset={6} collisionPadding={8} aria-label={label}>
          {children}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}

/** Wraps a button so that it closes the enclosing Popover. */
export function PopoverClose({ children }: { children: ReactElement }) {
  return <RadixPopover.Close asChild>{children}</RadixPopover.Close>;
}
