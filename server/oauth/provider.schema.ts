/**
 * OAuth 2.0 endpoints' inputs (RFC 6749 §4.1, RFC 7636). Parameters arrive as strings; what they
 * must say is checked by the provider (server/oauth/provider.ts), which decides whether an error
 * may be sent back to the client's redirect URI or must not be (unknown client, wrong URI).
 */
import { z } from "zod";

const param = (max: number) => z.string().max(max, `must be at most ${max} characters`).optional();

/** GET /oauth/authorize, /api/auth/v1/oauth/authorize and …/auto-sso/authorize. */
export const ZAuthorizeQuery = z.object({
  client_id: param(200),
  redirect_uri: param(2_048),
  response_type: param(50),
  state: param(1_024),
  scope: param(200),
  code_challenge: param(200),
  code_challenge_method: param(20),
  /** bridgekeeper: where the reader lands once the auth component's internal exchange is done. */
  callback_uri: param(2_048),
  /** bridgekeeper: "true" answers {redirect_uri} as JSON instead of a 302. */
  allow_ajax: param(10),
});
export type TAuthorizeQuery = z.output<typeof ZAuthorizeQuery>;

/**
 * POST /oauth/token and /api/auth/v1/oauth/token (form or JSON). Loose on purpose: an OAuth
 * client reads errors in RFC 6749 §5.2's shape, so the provider checks every field itself.
 */
export type TTokenRequest = {
  grant_type?: unknown;
  code?: unknown;
  redirect_uri?: unknown;
  client_id?: unknown;
  client_secret?: unknown;
  code_verifier?: unknown;
};

/** The token request as the API reference shows it (the provider checks it, answering RFC 6749 errors). */
export const ZTokenRequestReference = z.object({
  grant_type: z.literal("authorization_code"),
  code: z.string(),
  redirect_uri: z.string(),
  client_id: z.string().optional().describe("or HTTP Basic"),
  client_secret: z.string().optional().describe("or HTTP Basic"),
  code_verifier: z.string().optional().describe("required when the code has a PKCE challenge"),
});

/** GET /api/auth/v1/oauth/token: the auth component's internal exchange. */
export const ZInternalExchangeQuery = z.object({
  code: z.string().min(1, "is required").max(200),
  callback_uri: z.string().min(1, "is required").max(2_048),
  code_verifier: param(128),
});

/** GET /api/v1/current_user.json. */
export const ZCurrentUserQuery = z.object({ access_token: param(2_048) });
