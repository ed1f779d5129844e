// The sync server's side of a socket, for tests that drive the app's sync client by hand: what the
// client sent, and messages and closes delivered to it.
import type { SocketLike } from "@patrimonio/clientdb";

export class FakeSyncSocket implements SocketLike {
  readyState = 0;
  readonly sent: { type: string }[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number; reason: string }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  send(data: string): void {
    this.sent.push(JSON.parse(data) as { type: string });
  }
  close(): void {
    this.readyState = 3;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(message: unknown): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code: number): void {
    this.readyState = 3;
    this.onclose?.({ code, reason: "" });
  }
}
