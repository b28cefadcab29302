// The gateway monitor keeps why the gateway is down as one English string (`gateway.error` in the
// API, the CLI's status line, the daemon log). Some of those strings are the monitor's own words
// rather than an OS or HTTP error: they are written from here, and read back into their catalog
// message by `gatewayErrorMessage`, so the health check can say them in the reader's language.
import { msg, plainText, type Message } from "./message.js";

const GATEWAY_ERROR = {
  demo: msg("gateway.demo"),
  noPort: msg("gateway.noPort"),
  notOk: msg("gateway.notOk"),
} as const;

/** The English the monitor stores for each of its own reasons. */
export const GATEWAY_ERROR_TEXT = {
  demo: plainText(GATEWAY_ERROR.demo),
  noPort: plainText(GATEWAY_ERROR.noPort),
  notOk: plainText(GATEWAY_ERROR.notOk),
} as const;

const byText = new Map<string, Message>(Object.entries(GATEWAY_ERROR).map(([k, m]) => [GATEWAY_ERROR_TEXT[k as keyof typeof GATEWAY_ERROR], m]));

/** The catalog message of one of the monitor's own reasons; null for an error text from elsewhere. */
export function gatewayErrorMessage(text: string): Message | null {
  return byText.get(text) ?? null;
}
