// Dialog (a modal window over the page) and AlertDialog (a confirmation that cannot be dismissed by
// clicking outside; for destructive actions, optionally type-to-confirm), on Radix UI: focus moves
// in on open (to the element marked data-autofocus, else the first focusable), stays inside, and
// returns on close to what opened it; Escape closes; the title labels the dialog and the description
// describes it.
//
// What opened it: Radix gives focus back only to its own Trigger, but most dialogs here are opened
// by state (a button's handler, a row's menu item, an answer of the server). So the kit remembers
// what had focus when a dialog opened; for an item of a menu, the menu's button (the item is gone
// by then, and a menu opened by pointer never focused its button). When that element is gone on
// close (the row deleted), focus is left to the list's focus keeper (focusKeeper.ts).
//
// A form dialog passes `dirty` while it holds changes: then a click outside or Escape does not close
// it but asks first (DiscardChangesDialog, "¿Descartar los cambios?"); Cancel and × still close it,
// as the user asked for that explicitly.
import { AlertDialog as RadixAlertDialog, Dialog as RadixDialog } from "radix-ui";
import { TriangleAlert, X } from "lucide-react";
import { useEffect, useId, useRef, useState, type ReactElement, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button, IconButton } from "./Button";
import { cx } from "./cx";
import { Field } from "./Field";
import { controllerOf, focusLost } from "./focusKeeper";
import styles from "./Overlay.module.css";
import { TextInput } from "./TextInput";

/** Focuses the first [data-autofocus] element inside a dialog that opens, if there is one. */
function focusMarked(event: Event) {
  const content = event.currentTarget;
  if (!(content instanceof HTMLElement)) return;
  const marked = content.querySelector<HTMLElement>("[data-autofocus]");
  if (marked) {
    event.preventDefault();
    marked.focus();
  }
}

// The element that last had focus, as a menu's item counts its menu's button; kept by one listener
// for the whole page, so that a dialog opened after its opener was removed still knows it.
let lastFocused: HTMLElement | null = null;
let listening = false;

function opener(element: Element): HTMLElement | null {
  const menu = element.closest('[role="menu"]');
  if (menu === null) return element instanceof HTMLElement ? element : null;
  return controllerOf(menu);
}

function listenForFocus() {
  if (listening) return;
  listening = true;
  document.addEventListener(
    "focus",
    (event) => {
      if (event.target instanceof Element && event.target !== document.body) lastFocused = opener(event.target) ?? lastFocused;
    },
    true,
  );
}

/** The Content's focus handlers: remember the opener when it opens, give focus back when it closes. */
function useReturnFocus() {
  const from = useRef<HTMLElement | null>(null);
  useEffect(listenForFocus, []);
  return {
    onOpenAutoFocus(event: Event) {
      const active = document.activeElement;
      from.current = active === null || focusLost() ? lastFocused : opener(active);
      focusMarked(event);
    },
    onCloseAutoFocus(event: Event) {
      const back = from.current;
      from.current = null;
      // Otherwise Radix's own: its Trigger, when the dialog has one.
      if (!back?.isConnected) return;
      event.preventDefault();
      back.focus();
    },
  };
}

export interface DialogProps {
  /** Controlled: whether it is open. Leave out with `trigger` for an uncontrolled dialog. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** The element that opens it (a Button). */
  trigger?: ReactElement;
  title: ReactNode;
  description?: ReactNode;
  /** Buttons at the bottom (wrap a cancel button in <DialogClose>). */
  footer?: ReactNode;
  size?: "sm" | "md" | "lg";
  /** The × button in the corner (default shown; Escape closes either way). */
  showClose?: boolean;
  className?: string;
  /** The form holds changes: a click outside or Escape asks before closing (and losing them). */
  dirty?: boolean;
  children?: ReactNode;
  "data-testid"?: string;
}

export function Dialog({ open, onOpenChange, trigger, title, description, footer, size = "sm", showClose = true, className, dirty = false, children, ...rest }: DialogProps) {
  const { t } = useTranslation();
  const returnFocus = useReturnFocus();
  const [asking, setAsking] = useState(false);
  // Uncontrolled (a trigger, no `open`): kept here, so that "Descartar" can close it too.
  const [ownOpen, setOwnOpen] = useState(false);
  const isOpen = open ?? ownOpen;
  function openChange(next: boolean) {
    if (open === undefined) setOwnOpen(next);
    onOpenChange?.(next);
  }
  // Escape or a click outside (a focus outside never closes a modal dialog): close at once when nothing would be lost, else ask.
  function dismiss(event: Event) {
    if (!dirty) return;
    event.preventDefault();
    setAsking(true);
  }
  // Escape on an open combobox (the kit's Combobox) closes its list, not the dialog: Radix hears the
  // key on the document before the input does.
  function escapeKey(event: KeyboardEvent) {
    const target = event.target;
    if (target instanceof Element && target.getAttribute("role") === "combobox" && target.getAttribute("aria-expanded") === "true") {
      event.preventDefault();
      return;
    }
    dismiss(event);
  }
  return (
    <RadixDialog.Root open={isOpen} onOpenChange={openChange}>
      {trigger && <RadixDialog.Trigger asChild>{trigger}</RadixDialog.Trigger>}
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={styles.backdrop} />
        <RadixDialog.Content
          className={cx(styles.dialog, size !== "sm" && styles[size], className)}
          onOpenAutoFocus={returnFocus.onOpenAutoFocus}
          onCloseAutoFocus={returnFocus.onCloseAutoFocus}
          onEscapeKeyDown={escapeKey}
          onPointerDownOutside={dismiss}
          data-testid={rest["data-testid"]}
          {...(description ? {} : { "aria-describedby": undefined })}
        >
          <div className={styles.dialogHead}>
            <div className={styles.dialogHeadText}>
              <RadixDialog.Title className={styles.title}>{title}</RadixDialog.Title>
              {description && <RadixDialog.Description className={styles.description}>{description}</RadixDialog.Description>}
            </div>
            {showClose && (
              <RadixDialog.Close asChild>
                <IconButton label={t("ui.close")} icon={<X size={18} />} size="sm" className={styles.close} />
              </RadixDialog.Close>
            )}
          </div>
          <div className={styles.body}>{children}</div>
          {footer && <div className={styles.footer}>{footer}</div>}
          <DiscardChangesDialog
            open={asking}
            onKeep={() => setAsking(false)}
            onDiscard={() => {
              setAsking(false);
              openChange(false);
            }}
          />
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

export interface DiscardChangesDialogProps {
  open: boolean;
  /** "Seguir editando", Escape: back to the form, nothing lost. */
  onKeep: () => void;
  /** "Descartar": go on (close the form, leave the page), losing the changes. */
  onDiscard: () => void;
}

/**
 * "¿Descartar los cambios?": asked before a form with changes is closed or left (a form dialog's
 * Escape or click outside, a navigation away from a page's form: useLeaveGuard). Focus starts on
 * "Seguir editando", the choice that loses nothing.
 */
export function DiscardChangesDialog({ open, onKeep, onDiscard }: DiscardChangesDialogProps) {
  const { t } = useTranslation();
  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => !next && onKeep()}
      title={t("ui.discard.title")}
      description={t("ui.discard.description")}
      confirmLabel={t("ui.discard.confirm")}
      cancelLabel={t("ui.discard.keep")}
      onConfirm={onDiscard}
      data-testid="discard-changes"
    />
  );
}

/** Wraps a button so that it closes the enclosing Dialog: <DialogClose><Button>Cancelar</Button></DialogClose>. */
export function DialogClose({ children }: { children: ReactElement }) {
  return <RadixDialog.Close asChild>{children}</RadixDialog.Close>;
}

// ---------------------------------------------------------------- type to confirm

export interface ConfirmMatchOptions {
  /** Compare without regard to case (e-mail addresses). Default false. */
  ignoreCase?: boolean;
}

/** Whether the typed text confirms: equal to the expected text once both are trimmed (never when empty). */
export function confirmationMatches(typed: string, expected: string, { ignoreCase = false }: ConfirmMatchOptions = {}): boolean {
  const norm = (s: string) => (ignoreCase ? s.trim().toLowerCase() : s.trim());
  const value = norm(typed);
  return value !== "" && value === norm(expected);
}

export interface TypeToConfirmFieldProps extends ConfirmMatchOptions {
  /** What must be typed (a workspace name, an e-mail address, "ELIMINAR"). */
  expected: string;
  value: string;
  onChange: (value: string) => void;
  /** Default: "Confirmación". */
  label?: ReactNode;
  /** Default: "Escribe «…» para confirmar." */
  hint?: ReactNode;
  error?: string;
  name?: string;
  type?: "text" | "email";
  autoFocus?: boolean;
}

/**
 * The field of a type-to-confirm panel, inline or inside AlertDialog. Pair it with a button that is
 * disabled until confirmationMatches(value, expected).
 */
export function TypeToConfirmField({ expected, value, onChange, label, hint, error, name, type = "text", autoFocus, ignoreCase }: TypeToConfirmFieldProps) {
  const { t } = useTranslation();
  const matches = confirmationMatches(value, expected, { ignoreCase });
  return (
    <Field label={label ?? t("ui.typeToConfirm.label")} hint={hint ?? t("ui.typeToConfirm.hint", { text: expected })} error={error}>
      <TextInput
        name={name}
        type={type}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        data-autofocus={autoFocus ? "" : undefined}
        data-matches={matches}
        // The panel opens to be filled in: focus goes to its field.
        autoFocus={autoFocus}
      />
    </Field>
  );
}

// ---------------------------------------------------------------- AlertDialog

export interface AlertDialogProps {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  trigger?: ReactElement;
  title: ReactNode;
  description?: ReactNode;
  /** The confirm button's text ("Eliminar espacio"). */
  confirmLabel: ReactNode;
  /** Shown on the confirm button while `loading` ("Eliminando…"). */
  confirmLoadingLabel?: ReactNode;
  /** Default "Cancelar". */
  cancelLabel?: ReactNode;
  /** Called on confirm. The dialog stays open: close it (onOpenChange / open) when the action succeeded. */
  onConfirm: () => void;
  /** "danger" (default): red confirm button and a warning icon. */
  tone?: "danger" | "default";
  /** Type-to-confirm: the confirm button stays disabled until this text is typed. */
  confirmText?: string;
  /** Options of the type-to-confirm comparison (ignoreCase for e-mail addresses). */
  confirmTextOptions?: ConfirmMatchOptions & { label?: ReactNode; hint?: ReactNode; type?: "text" | "email" };
  /** The action is running: confirm shows a spinner, nothing can be pressed twice. */
  loading?: boolean;
  /** An Alert under the content (the server's refusal). */
  error?: ReactNode;
  children?: ReactNode;
  "data-testid"?: string;
}

export function AlertDialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  confirmLabel,
  confirmLoadingLabel,
  cancelLabel,
  onConfirm,
  tone = "danger",
  confirmText,
  confirmTextOptions = {},
  loading = false,
  error,
  children,
  ...rest
}: AlertDialogProps) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState("");
  const formId = useId();
  const confirmed = confirmText === undefined || confirmationMatches(typed, confirmText, confirmTextOptions);
  const returnFocus = useReturnFocus();

  function openChange(next: boolean) {
    if (!next) setTyped("");
    onOpenChange?.(next);
  }

  return (
    <RadixAlertDialog.Root {...(open !== undefined ? { open } : {})} onOpenChange={openChange}>
      {trigger && <RadixAlertDialog.Trigger asChild>{trigger}</RadixAlertDialog.Trigger>}
      <RadixAlertDialog.Portal>
        <RadixAlertDialog.Overlay className={styles.backdrop} />
        <RadixAlertDialog.Content
          className={styles.dialog}
          onOpenAutoFocus={returnFocus.onOpenAutoFocus}
          onCloseAutoFocus={returnFocus.onCloseAutoFocus}
          data-testid={rest["data-testid"]}
          {...(description ? {} : { "aria-describedby": undefined })}
        >
          <div className={styles.dialogHead}>
            {tone === "danger" && (
              <span className={styles.alertIcon} aria-hidden="true">
                <TriangleAlert size={20} />
              </span>
            )}
            <div className={styles.dialogHeadText}>
              <RadixAlertDialog.Title className={styles.title}>{title}</RadixAlertDialog.Title>
              {description && <RadixAlertDialog.Description className={styles.description}>{description}</RadixAlertDialog.Description>}
            </div>
          </div>
          <form
            id={formId}
            className={styles.body}
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              if (confirmed && !loading) onConfirm();
            }}
          >
            {children}
            {confirmText !== undefined && (
              <TypeToConfirmField
                expected={confirmText}
                value={typed}
                onChange={setTyped}
                label={confirmTextOptions.label}
                hint={confirmTextOptions.hint}
                type={confirmTextOptions.type}
                ignoreCase={confirmTextOptions.ignoreCase}
                autoFocus
              />
            )}
            {error}
          </form>
          <div className={styles.footer}>
            <RadixAlertDialog.Cancel asChild>
              <Button variant="ghost" disabled={loading}>
                {cancelLabel ?? t("common.cancel")}
              </Button>
            </RadixAlertDialog.Cancel>
            <Button
              type="submit"
              form={formId}
              variant={tone === "danger" ? "danger" : "primary"}
              disabled={!confirmed}
              loading={loading}
              loadingText={confirmLoadingLabel}
              data-autofocus={confirmText === undefined && tone !== "danger" ? "" : undefined}
            >
              {confirmLabel}
            </Button>
          </div>
        </RadixAlertDialog.Content>
      </RadixAlertDialog.Portal>
    </RadixAlertDialog.Root>
  );
}
