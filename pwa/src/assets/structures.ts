// The legal-structure graph helpers (pure; they live in @patrimonio/clientdb because its commands
// refuse a cycle with them), re-exported for the screens.
export { ancestorChain, findCycles, idsInCycles, structureTree, wouldCreateCycle, type StructureLink } from "@patrimonio/clientdb";
