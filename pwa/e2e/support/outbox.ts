// The server's development outbox (PATRIMONIO_DEV_OUTBOX): every e-mail it "sent", with its code,
// read through GET /api/v1/dev/outbox?to=<address>.
import { expect, type APIRequestContext } from "@playwright/test";

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  code: string;
  purpose?: string;
  sentAt: string;
  /** The link the mail carries (a password reset). */
  link?: string;
}

export async function readOutbox(request: APIRequestContext, baseURL: string, to: string): Promise<OutboxMail[]> {
  const res = await request.get(`${baseURL}/api/v1/dev/outbox?to=${encodeURIComponent(to)}`);
  expect(res.status(), "GET /api/v1/dev/outbox (is PATRIMONIO_DEV_OUTBOX set?)").toBe(200);
  return (await res.json()) as OutboxMail[];
}

/** Waits for the `count`-th mail to `to` and returns its code. */
export async function waitForCode(request: APIRequestContext, baseURL: string, to: string, count = 1): Promise<string> {
  let mails: OutboxMail[] = [];
  await expect
    .poll(async () => {
      mails = await readOutbox(request, baseURL, to);
      return mails.length;
    }, { message: `mail number ${count} to ${to}` })
    .toBeGreaterThanOrEqual(count);
  const code = mails[count - 1]?.code ?? "";
  expect(code).toMatch(/^[0-9]{6}$/);
  return code;
}
