// /profile/: the account (its e-mail address and the change of it), the personal identity, security
// (authenticator app, passkeys, and the identity confirmation that sensitive changes need), the
// person's data (a download of everything, made on the device) and the danger zone (deleting the
// account).
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { endpoints } from "../../api/endpoints";
import { queryKeys, useMe } from "../../api/queries";
import { personalIdentityFromUser } from "../../forms/personalIdentity";
import { PersonalInfoForm } from "../../forms/PersonalInfoForm";
import { RoutePending } from "../../router/fallbacks";
import { notify } from "../../toast/toast";
import { EmailSetting } from "./ChangeEmail";
import { DangerZone } from "./DangerZone";
import { DataExportSetting } from "./DataExportSetting";
import { Card } from "../../ui/Card";
import { cx } from "../../ui/cx";
import { PageHeader } from "../../ui/PageHeader";
import page from "../page.module.css";
import { ProfileIdentity } from "./ProfileIdentity";
import { NeedsConnection } from "../../shell/NeedsConnection";
import { SecuritySection } from "./SecuritySection";

export function ProfileScreen() {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const { data: me } = useMe();
  if (!me) return <RoutePending />;
  const { user } = me;
  return (
    <div className={cx(page.page, page.medium, page.stack)}>
      <PageHeader title={t("profile.title")} subtitle={t("profile.subtitle")} />
      <NeedsConnection>{t("profile.offline")}</NeedsConnection>

      <Card title={t("account.profile.title")}>
        <ProfileIdentity user={user} />
      </Card>

      <Card title={t("profile.account.title")}>
        {/* With the hosted provider, the address is changed at the provider. */}
        <EmailSetting user={user} canChange={me.provider === "local"} />
      </Card>

      <Card title={t("profile.identity.title")}>
        <PersonalInfoForm
          key={user.id}
          defaultValues={personalIdentityFromUser(user)}
          submitLabel={t("common.saveChanges")}
          onSubmit={async (values) => {
            await endpoints.updatePersonalIdentity(api, values);
            await queryClient.invalidateQueries({ queryKey: queryKeys.me });
            notify("success", t("profile.identity.saved"));
          }}
        />
      </Card>

      <SecuritySection me={me} />

      <DataExportSetting me={me} />

      <DangerZone me={me} />
    </div>
  );
}
