// A step of a multi-step screen takes the focus when it comes: the element marked data-step-focus
// (with tabIndex -1) inside the returned ref's container, on every change of the step but not on the
// first render. The control that led to the step (a "Read the file" button) is gone with the step
// before, and the focus would otherwise fall back to the page's start.
import { useEffect, useRef, type RefObject } from "react";

export function useStepFocus<S>(step: S): RefObject<HTMLDivElement | null> {
  const root = useRef<HTMLDivElement>(null);
  const shown = useRef(step);
  useEffect(() => {
    if (shown.current === step) return;
    shown.current = step;
    root.current?.querySelector<HTMLElement>("[data-step-focus]")?.focus();
  }, [step]);
  return root;
}
