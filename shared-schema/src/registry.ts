// Every validated document type ("entity") by name: its zod schema and its JSON Schema file(s).
// Names are the ones the Go side takes in schema.Validate(entity, raw, lang).
import type * as z from "zod";
import { COLLECTIONS, type CollectionName } from "./collections";
import { enumerationSchema } from "./enumeration";
import { enumFilterSchema } from "./enumFilter";
import { ADMIN_REQUEST_SCHEMAS } from "./adminRequests";
import { CONNECTION_REQUEST_SCHEMAS } from "./connectionRequests";
import { ENUM_REQUEST_SCHEMAS } from "./enumRequests";
import { validateWith, type Validated } from "./issues";
import { loginPlaintextSchema } from "./login";
import { personalIdentitySchema } from "./personalIdentity";
import { CLIENT_MESSAGES, clientMessageSchema, SERVER_MESSAGES, serverMessageSchema } from "./protocol";
import { REQUEST_SCHEMAS } from "./requests";

type CollectionEntities = {
  [C in CollectionName as (typeof COLLECTIONS)[C]["entity"]]: (typeof COLLECTIONS)[C]["schema"];
};

function collectionEntities(): CollectionEntities {
  const out: Record<string, z.ZodType> = {};
  for (const c of Object.values(COLLECTIONS)) out[c.entity] = c.schema;
  return out as CollectionEntities;
}

/** Entity name -> zod schema. Records of synced collections, online-only data, protocol messages. */
export const ENTITY_SCHEMAS = {
  ...collectionEntities(),
  loginPlaintext: loginPlaintextSchema,
  personalIdentity: personalIdentitySchema,
  enumeration: enumerationSchema,
  enumFilter: enumFilterSchema,
  ...REQUEST_SCHEMAS,
  ...ENUM_REQUEST_SCHEMAS,
  ...ADMIN_REQUEST_SCHEMAS,
  ...CONNECTION_REQUEST_SCHEMAS,
  clientMessage: clientMessageSchema,
  serverMessage: serverMessageSchema,
} as const;
export type EntityName = keyof typeof ENTITY_SCHEMAS;
export type EntityValue<E extends EntityName> = z.infer<(typeof ENTITY_SCHEMAS)[E]>;

/** Online-only entities (server is the authority; not synced through collections). */
export const ONLINE_ENTITIES = ["personalIdentity", "enumeration", "enumFilter"] as const;

/** Device-only entities: validated on the device, never synced (the login before encryption). */
export const DEVICE_ENTITIES = ["loginPlaintext"] as const;

/** Message entities: validated per `type` against jsonschema/message.<type>.json. */
export const MESSAGE_ENTITIES = { clientMessage: CLIENT_MESSAGES, serverMessage: SERVER_MESSAGES } as const;

/** JSON Schema file of a record entity (message entities have one file per message type). */
export function jsonSchemaFile(entity: Exclude<EntityName, keyof typeof MESSAGE_ENTITIES>): string {
  return `${entity}.json`;
}

/** Validate one document of an entity: the unchanged value, or its issues ({ path, key, params }). */
export function validate<E extends EntityName>(entity: E, input: unknown): Validated<EntityValue<E>> {
  return validateWith(ENTITY_SCHEMAS[entity] as unknown as z.ZodType<EntityValue<E>>, input);
}
