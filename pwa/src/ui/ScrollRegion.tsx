// A box that scrolls sideways when its content (a wide table) is wider than it, so that the content
// never widens the page (WCAG 1.4.10, reflow). While it does scroll it is a named, focusable region,
// so that a keyboard can scroll it too (WCAG 2.1.1; axe's scrollable-region-focusable); while
// everything fits it is a plain box, with no tab stop that would do nothing. Its name is the caption
// of the table inside, or `label`.
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { cx } from "./cx";
import styles from "./ScrollRegion.module.css";

export interface ScrollRegionProps {
  children: ReactNode;
  /** The region's name when the content has no table caption to name it. */
  label?: string;
  className?: string;
  "data-testid"?: string;
}

/** Whether an element's content is wider than it shows. */
function overflows(el: HTMLElement): boolean {
  return el.scrollWidth > el.clientWidth + 1;
}

export function ScrollRegion({ children, label, className, "data-testid": testId }: ScrollRegionProps) {
  const ref = useRef<HTMLDivElement>(null);
  const captionId = useId();
  const [scrolls, setScrolls] = useState(false);
  const [named, setNamed] = useState<string | undefined>(undefined);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      setScrolls(overflows(el));
      // The caption of the table inside names the region (it may come and go with the content).
      const caption = el.querySelector("caption");
      if (caption) {
        if (!caption.id) caption.id = captionId;
        setNamed(caption.id);
      } else setNamed(undefined);
    };
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    for (const child of Array.from(el.children)) observer.observe(child);
    return () => observer.disconnect();
  }, [captionId, children]);

  const region = scrolls ? { role: "region", tabIndex: 0, ...(named ? { "aria-labelledby": named } : { "aria-label": label }) } : {};
  return (
    <div ref={ref} className={cx(styles.region, className)} data-scrolls={scrolls || undefined} data-testid={testId} {...region}>
      {children}
    </div>
  );
}
