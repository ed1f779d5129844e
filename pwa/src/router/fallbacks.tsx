// What the router shows instead of a screen: Not Found, a route error ("Something went wrong!" with
// Show Error / Hide Error, a retry and a way home) and the pending view. Inside a layout they fill its
// main area; at the root (an unknown path) they bring the layout that fits the visitor. Both are the
// kit's EmptyState.
import { Link, useRouter, type ErrorComponentProps } from "@tanstack/react-router";
import { Compass, House, RotateCw, TriangleAlert } from "lucide-react";
import { useId, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AdaptiveLayout } from "../shell/AdaptiveLayout";
import { useInLayout } from "../shell/layoutContext";
import { Button, buttonClass } from "../ui/Button";
import { EmptyState } from "../ui/EmptyState";
import { RoutePending } from "./RoutePending";
import { useTitleOverride } from "./title";

export { RoutePending };

/** Puts a fallback inside a layout when it is not in one already. */
function FallbackFrame({ children }: { children: ReactNode }) {
  return useInLayout() ? children : <AdaptiveLayout>{children}</AdaptiveLayout>;
}

export function NotFound() {
  const { t } = useTranslation();
  useTitleOverride("router.notFound.title");
  return (
    <FallbackFrame>
      <EmptyState
        plain
        aria-labelledby="not-found-title"
        data-testid="not-found"
        icon={<Compass size={22} />}
        headingLevel={1}
        headingId="not-found-title"
        title={t("router.notFound.title")}
        text={t("router.notFound.description")}
        action={
          <Link to="/" className={buttonClass({ variant: "primary" })}>
            <House size={16} aria-hidden="true" />
            {t("router.notFound.home")}
          </Link>
        }
      />
    </FallbackFrame>
  );
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

export function RouteError({ error, reset }: Pick<ErrorComponentProps, "error" | "reset">) {
  const { t } = useTranslation();
  const router = useRouter();
  const [shown, setShown] = useState(false);
  const detailsId = useId();
  const titleId = useId();
  useTitleOverride("router.error.title");
  return (
    <FallbackFrame>
      <EmptyState
        plain
        role="alert"
        aria-labelledby={titleId}
        data-testid="route-error"
        tone="danger"
        icon={<TriangleAlert size={22} />}
        headingLevel={1}
        headingId={titleId}
        title={t("router.error.title")}
        text={t("router.error.description")}
        action={
          <>
            <Button
              variant="primary"
              icon={<RotateCw size={16} />}
              onClick={() => {
                // A render error is cleared by resetting the boundary; a failed beforeLoad or loader is
                // run again by invalidating the matches.
                reset();
                void router.invalidate();
              }}
            >
              {t("router.error.retry")}
            </Button>
            <Link to="/" className={buttonClass({ variant: "secondary" })} onClick={() => reset()}>
              <House size={16} aria-hidden="true" />
              {t("router.error.home")}
            </Link>
          </>
        }
        details={shown && errorMessage(error)}
        detailsId={detailsId}
      >
        <Button variant="ghost" size="sm" aria-expanded={shown} aria-controls={detailsId} onClick={() => setShown((s) => !s)}>
          {shown ? t("router.error.hide") : t("router.error.show")}
        </Button>
      </EmptyState>
    </FallbackFrame>
  );
}
