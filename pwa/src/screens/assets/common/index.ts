// Small components the asset screens share (see /tmp/team/assets-core.md during the session and
// pwa/src/assets/ for the data side).
export { ConflictNote, type ConflictNoteProps } from "./ConflictNote";
export { CategoryLabel, ClassLabel } from "./Labels";
export { MoneyText, MoneyTotalsText, PercentText } from "./MoneyText";
export { ReadOnlyNotice } from "./ReadOnlyNotice";
export { ValuationAge } from "./ValuationAge";
