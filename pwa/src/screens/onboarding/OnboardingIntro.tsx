// /onboarding: the welcome — it takes about 3 minutes; the steps are: add a second factor, personal
// identity and card verification, add assets. After sign-up the user lands here at #/security
// (spec), which points at the first step.
import { Link, useLocation } from "@tanstack/react-router";
import { ArrowRight, Clock3, IdCard, ShieldCheck, Wallet } from "lucide-react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useMe } from "../../api/queries";
import { onboardingPath } from "../../auth/guards";
import formStyles from "../../forms/form.module.css";
import { buttonClass } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { PageHeader } from "../../ui/PageHeader";
import styles from "./Onboarding.module.css";

/** The intro's sections; "#/<id>" in the URL points at one. */
export const INTRO_SECTIONS = [
  { id: "security", icon: ShieldCheck, titleKey: "onboarding.intro.security.title", textKey: "onboarding.intro.security.text", steps: ["security_totp", "security_passkey"] },
  { id: "identity", icon: IdCard, titleKey: "onboarding.intro.identity.title", textKey: "onboarding.intro.identity.text", steps: ["personal_info", "billing"] },
  { id: "assets", icon: Wallet, titleKey: "onboarding.intro.assets.title", textKey: "onboarding.intro.assets.text", steps: ["done"] },
] as const;

export type IntroSectionId = (typeof INTRO_SECTIONS)[number]["id"];

/** "#/security" (TanStack gives "/security") → "security"; unknown hashes point nowhere. */
export function sectionFromHash(hash: string): IntroSectionId | undefined {
  const id = hash.replace(/^#?\/?/, "");
  return INTRO_SECTIONS.find((s) => s.id === id)?.id;
}

export function OnboardingIntro() {
  const { t } = useTranslation();
  const { data: me } = useMe();
  const hash = useLocation({ select: (l) => l.hash });
  const target = sectionFromHash(hash);
  const targetRef = useRef<HTMLLIElement>(null);
  const step = me?.onboarding.step ?? "security_totp";
  const currentIndex = INTRO_SECTIONS.findIndex((s) => (s.steps as readonly string[]).includes(step));
  const next = me ? onboardingPath(me.onboarding) : "/onboarding";

  useEffect(() => {
    targetRef.current?.scrollIntoView?.({ block: "nearest" });
  }, [target]);

  return (
    <section aria-labelledby="onboarding-title">
      <PageHeader
        title={<span id="onboarding-title">{t("onboarding.intro.title")}</span>}
        subtitle={
          <>
            <Clock3 size={15} aria-hidden="true" className={styles.inlineIcon} /> {t("onboarding.intro.duration")}
          </>
        }
      />
      <ol className={styles.steps}>
        {INTRO_SECTIONS.map((section, index) => {
          const state = index < currentIndex ? "done" : index === currentIndex ? "current" : "upcoming";
          const Icon = section.icon;
          return (
            <li
              key={section.id}
              id={`onboarding-${section.id}`}
              ref={section.id === target ? targetRef : undefined}
              className={styles.step}
              data-state={state}
              data-targeted={section.id === target ? true : undefined}
              aria-current={state === "current" ? "step" : undefined}
            >
              <Card
                icon={<Icon size={20} />}
                title={
                  <span className={styles.stepTitle}>
                    <span className={styles.stepNumber}>{t("onboarding.intro.stepNumber", { number: index + 1 })}</span>
                    {t(section.titleKey)}
                  </span>
                }
                description={t(section.textKey)}
                padding="compact"
              />
            </li>
          );
        })}
      </ol>
      <div className={formStyles.actions}>
        <Link to={next} className={buttonClass({ variant: "primary" })} data-testid="onboarding-start">
          {step === "security_totp" ? t("onboarding.intro.start") : t("onboarding.intro.continue")}
          <ArrowRight size={16} aria-hidden="true" />
        </Link>
      </div>
    </section>
  );
}
