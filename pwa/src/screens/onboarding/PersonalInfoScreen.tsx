// /onboarding/personal-info: the spec's personal identity form; then the dashboard (card
// verification and plan come here when billing is on, a later issue).
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { endpoints } from "../../api/endpoints";
import { useMe } from "../../api/queries";
import { personalIdentityFromUser } from "../../forms/personalIdentity";
import { PersonalInfoForm } from "../../forms/PersonalInfoForm";
import { useCompleteStep } from "./useCompleteStep";

export function PersonalInfoScreen() {
  const { t } = useTranslation();
  const api = useApi();
  const { data: me } = useMe();
  const completeStep = useCompleteStep("personal_info");
  return (
    <section className="card onboarding-card" aria-labelledby="personal-info-title">
      <div className="card-head">
        <h1 id="personal-info-title" className="card-title">
          {t("onboarding.personalInfo.title")}
        </h1>
        <p className="card-subtitle">{t("onboarding.personalInfo.subtitle")}</p>
      </div>
      <PersonalInfoForm
        defaultValues={personalIdentityFromUser(me?.user)}
        submitLabel={t("onboarding.personalInfo.submit")}
        onSubmit={async (values) => {
          await endpoints.updatePersonalIdentity(api, values);
          await completeStep("complete");
        }}
      />
    </section>
  );
}
