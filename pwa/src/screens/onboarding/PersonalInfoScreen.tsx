// /onboarding/personal-info: the spec's personal identity form; then the dashboard (card
// verification and plan come here when billing is on, a later issue).
import { useTranslation } from "react-i18next";
import { useUpdatePersonalIdentityMutation } from "../../api/account";
import { useMe } from "../../api/queries";
import { personalIdentityFromUser } from "../../forms/personalIdentity";
import { PersonalInfoForm } from "../../forms/PersonalInfoForm";
import { Card } from "../../ui/Card";
import { useCompleteStep } from "./useCompleteStep";

export function PersonalInfoScreen() {
  const { t } = useTranslation();
  const { data: me } = useMe();
  const completeStep = useCompleteStep("personal_info");
  const save = useUpdatePersonalIdentityMutation({ onSuccess: () => completeStep("complete") });
  return (
    <Card title={t("onboarding.personalInfo.title")} description={t("onboarding.personalInfo.subtitle")} headingLevel={1}>
      <PersonalInfoForm
        defaultValues={personalIdentityFromUser(me?.user)}
        submitLabel={t("onboarding.personalInfo.submit")}
        onSubmit={(values) => save.mutateAsync(values)}
      />
    </Card>
  );
}
