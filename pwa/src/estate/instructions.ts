// Legacy instructions grouped for reading: general ones first, then per asset (by asset name), then
// per beneficiary (by name); an instruction about an asset and a beneficiary goes under the asset.
// Inside a group: high, medium, low, then without priority; then oldest first (stable). An
// instruction whose asset or beneficiary is not on this device (deleted elsewhere) reads as general.
export interface InstructionLike {
  id: string;
  fields: { text: string; priority?: "high" | "medium" | "low" | undefined; assetId?: string | undefined; beneficiaryId?: string | undefined };
}

export interface InstructionGroup<I> {
  key: string;
  kind: "general" | "asset" | "beneficiary";
  /** The asset's or beneficiary's name ("" for general). */
  name: string;
  items: I[];
}

const RANK = { high: 0, medium: 1, low: 2 } as const;

function byPriority<I extends InstructionLike>(a: I, b: I): number {
  return (a.fields.priority ? RANK[a.fields.priority] : 3) - (b.fields.priority ? RANK[b.fields.priority] : 3);
}

export function groupInstructions<I extends InstructionLike>(
  instructions: readonly I[],
  assets: readonly { id: string; fields: { name: string } }[],
  beneficiaries: readonly { id: string; fields: { name: string } }[],
): InstructionGroup<I>[] {
  const assetNames = new Map(assets.map((a) => [a.id, a.fields.name]));
  const people = new Map(beneficiaries.map((b) => [b.id, b.fields.name]));
  const general: I[] = [];
  const byAsset = new Map<string, I[]>();
  const byPerson = new Map<string, I[]>();
  for (const r of instructions) {
    const { assetId, beneficiaryId } = r.fields;
    if (assetId !== undefined && assetNames.has(assetId)) byAsset.set(assetId, [...(byAsset.get(assetId) ?? []), r]);
    else if (beneficiaryId !== undefined && people.has(beneficiaryId)) byPerson.set(beneficiaryId, [...(byPerson.get(beneficiaryId) ?? []), r]);
    else general.push(r);
  }
  const named = (kind: "asset" | "beneficiary", map: Map<string, I[]>, names: Map<string, string>) =>
    [...map.entries()]
      .map(([id, items]): InstructionGroup<I> => ({ key: `${kind}:${id}`, kind, name: names.get(id) ?? "", items: [...items].sort(byPriority) }))
      .sort((a, b) => a.name.localeCompare(b.name));
  return [
    ...(general.length > 0 ? [{ key: "general", kind: "general" as const, name: "", items: [...general].sort(byPriority) }] : []),
    ...named("asset", byAsset, assetNames),
    ...named("beneficiary", byPerson, people),
  ];
}

/** Who an instruction filed under an asset is for: the name of its beneficiary when one is on this
 * device (the Instructions tab's "Para …" badge and the binder's line). Under a beneficiary's own
 * group, or in the general group, nobody more is named. */
export function instructionFor<I extends InstructionLike>(
  group: Pick<InstructionGroup<I>, "kind">,
  instruction: I,
  beneficiaries: readonly { id: string; fields: { name: string } }[],
): string | undefined {
  const id = instruction.fields.beneficiaryId;
  if (group.kind !== "asset" || id === undefined) return undefined;
  return beneficiaries.find((b) => b.id === id)?.fields.name;
}
