// Login: credentials and access notes for heirs — the most sensitive data in the app.
// `secret` is marked x-secret: it is never logged, never echoed in a validation message.
import * as z from "zod";
import { doc, SECRET, text, url, uuidv7 } from "./primitives";

export const loginShape = {
  institution: doc(text({ min: 1, max: 140 }), "Bank, broker, exchange or service."),
  url: doc(url(), "Sign-in address (http or https, at most 2000 characters).").optional(),
  username: doc(text({ min: 1, max: 256 }), "User name or account number.").optional(),
  secret: doc(text({ min: 1, max: 1000 }).meta({ [SECRET]: true }), "Password, PIN or recovery phrase. Never logged.").optional(),
  notes: doc(text({ max: 4000 }), "Access notes for heirs.").optional(),
  assetId: doc(uuidv7(), "Asset this login gives access to (id of an assets record).").optional(),
};

export const loginSchema = doc(z.strictObject(loginShape), "Login");
export type Login = z.infer<typeof loginSchema>;
