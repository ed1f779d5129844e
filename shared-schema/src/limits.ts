// The protocol's size limits, in a module of their own: validation helpers (issues.ts) need them
// without pulling in every record schema that protocol.ts imports, so a page that only validates a
// form does not download the sync protocol.
export const LIMITS = {
  /** Largest message (WebSocket frame) either side accepts, in bytes. */
  maxMessageBytes: 1_048_576,
  /** Largest single record document, in bytes. */
  maxRecordBytes: 65_536,
  /** Deepest nesting of objects/arrays in any document (the root container is depth 1). */
  maxDepth: 10,
  /** Mutations in one push (a push must also fit in maxMessageBytes: cut batches by both). */
  maxMutationsPerPush: 500,
  /** Changes (or snapshot records) in one page, and the largest pull limit. */
  maxChangesPerPage: 500,
  /** Fields in one mutation or change. */
  maxFieldsPerMutation: 100,
  /** Workspaces in one hello. */
  maxWorkspaces: 100,
  /** Issues in one reject. */
  maxIssues: 100,
} as const;
