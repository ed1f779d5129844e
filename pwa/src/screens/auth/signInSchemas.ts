// The sign-in screen's schemas, imported after its first paint (SignInScreen.tsx, lazySchemaForm.ts).
export { codeRequestSchema, recoveryCodeRequestSchema, signInRequestSchema } from "@patrimonio/shared-schema";
