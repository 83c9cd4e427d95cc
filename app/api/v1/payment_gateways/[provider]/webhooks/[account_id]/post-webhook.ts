/**
 * TEST-ONLY: a gateway's webhook delivered to this route as the gateway would POST it (the raw
 * body it signed and its headers), for integration tests of gateway events.
 */
import { POST } from "./route";

export function postGatewayWebhook(
  provider: string,
  accountId: number | string,
  hook: { body: string; headers: Record<string, string> },
): Promise<Response> {
  return POST(
    new Request(`http://localhost/api/v1/payment_gateways/${provider}/webhooks/${accountId}`, {
      method: "POST",
      headers: { host: "localhost", ...hook.headers },
      body: hook.body,
    }),
    { params: Promise.resolve({ provider, account_id: String(accountId) }) },
  );
}
