// Validation issues on fields a form does not show (a save the rest of the record blocks, e.g. a
// record two devices merged into one that breaks a rule): listed with the field's name.
import type { Issue } from "@patrimonio/shared-schema";
import { useTranslation } from "react-i18next";
import { translateKey } from "../../../forms/schemaForm";
import { Alert } from "../../../ui/Alert";
import { useFieldLabel } from "./fieldText";

export function IssueList({ issues }: { issues: readonly Issue[] }) {
  const { t, i18n } = useTranslation();
  const label = useFieldLabel();
  if (issues.length === 0) return null;
  return (
    <Alert tone="error" title={t("assetDetail.otherIssues")}>
      <ul>
        {issues.map((issue) => (
          <li key={`${issue.path}:${issue.key}`}>
            {issue.path ? `${label(issue.path.split(".")[0] ?? "")}: ` : ""}
            {translateKey(i18n, { key: issue.key, params: issue.params })}
          </li>
        ))}
      </ul>
    </Alert>
  );
}
