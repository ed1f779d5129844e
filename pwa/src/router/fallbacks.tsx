// What the router shows instead of a screen: not found, a route error, and the pending view.
import { Link, type ErrorComponentProps } from "@tanstack/react-router";
import { Compass, LoaderCircle, TriangleAlert } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";

export function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="fallback" aria-labelledby="not-found-title">
      <span className="fallback-icon" aria-hidden="true">
        <Compass size={22} />
      </span>
      <h1 id="not-found-title" className="fallback-title">
        {t("router.notFound.title")}
      </h1>
      <p className="fallback-text">{t("router.notFound.description")}</p>
      <Link to="/" className="button button-primary">
        {t("router.notFound.home")}
      </Link>
    </section>
  );
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

export function RouteError({ error }: Pick<ErrorComponentProps, "error">) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const detailsId = useId();
  return (
    <section className="fallback" role="alert">
      <span className="fallback-icon fallback-icon-danger" aria-hidden="true">
        <TriangleAlert size={22} />
      </span>
      <h1 className="fallback-title">{t("router.error.title")}</h1>
      <button
        type="button"
        className="button"
        aria-expanded={shown}
        aria-controls={detailsId}
        onClick={() => setShown((s) => !s)}
      >
        {shown ? t("router.error.hide") : t("router.error.show")}
      </button>
      {shown && (
        <pre id={detailsId} className="fallback-details">
          {errorMessage(error)}
        </pre>
      )}
    </section>
  );
}

export function RoutePending() {
  const { t } = useTranslation();
  return (
    <div className="pending" role="status">
      <LoaderCircle className="spin" size={20} aria-hidden="true" />
      <span>{t("router.pending")}</span>
    </div>
  );
}
