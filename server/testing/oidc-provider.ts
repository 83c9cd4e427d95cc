/**
 * A local OpenID Connect provider and a fake Facebook Graph API for social-login tests, on
 * 127.0.0.1: discovery, a JWKS of its own (an RS256 key made at start), ID tokens signed with it
 * by jose, token introspection and userinfo for access tokens it issued, and Graph's debug_token
 * and /me. (panva's oidc-provider would issue ID tokens only at the end of a browser
 * authorization-code flow with interactions; what Masthead checks is the token and the provider's
 * published keys, which this serves the same way over real HTTP.)
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";

type IdTokenClaims = {
  sub: string;
  aud?: string | string[];
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
  nonce?: string;
  azp?: string;
  iss?: string;
  /** Seconds from now (negative: already expired). */
  expiresIn?: number;
};

type FacebookUser = { id: string; name: string; email?: string; appId: string };

export type TestOidcProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** An ID token signed with the provider's published key. */
  idToken(claims: IdTokenClaims): Promise<string>;
  /** An ID token signed with another key that claims the provider's key id (a forgery). */
  forgedIdToken(claims: IdTokenClaims): Promise<string>;
  /** An opaque access token for `claims`, issued to `clientId` (or another client). */
  accessToken(claims: IdTokenClaims, clientId?: string): string;
  /** Graph API: an access token for `user`. */
  facebookToken(user: FacebookUser): string;
  /** Requests received, by path. */
  requests: string[];
  close(): Promise<void>;
};

export async function startTestOidcProvider(): Promise<TestOidcProvider> {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const other = await generateKeyPair("RS256");
  const kid = "test-key-1";
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" };
  const clientId = "masthead-test-client";
  const clientSecret = "test-client-secret";
  const accessTokens = new Map<string, { claims: IdTokenClaims; clientId: string }>();
  const facebookTokens = new Map<string, FacebookUser>();
  const requests: string[] = [];
  let issuer = "";

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    requests.push(url.pathname);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      switch (url.pathname) {
        case "/.well-known/openid-configuration":
          return send(200, {
            issuer,
            jwks_uri: `${issuer}/jwks`,
            userinfo_endpoint: `${issuer}/userinfo`,
            introspection_endpoint: `${issuer}/introspect`,
            id_token_signing_alg_values_supported: ["RS256"],
          });
        case "/jwks":
          return send(200, { keys: [jwk] });
        case "/introspect": {
          const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
          if (req.headers.authorization !== expected) return send(401, { error: "invalid_client" });
          const token = new URLSearchParams(body).get("token") ?? "";
          const found = accessTokens.get(token);
          return send(
            200,
            found ? { active: true, client_id: found.clientId, sub: found.claims.sub } : { active: false },
          );
        }
        case "/userinfo": {
          const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
          const found = accessTokens.get(token);
          if (!found) return send(401, { error: "invalid_token" });
          const { expiresIn: _e, aud: _a, nonce: _n, azp: _z, iss: _i, ...claims } = found.claims;
          return send(200, claims);
        }
        case "/tokeninfo": {
          // Google's tokeninfo for access tokens: aud/azp, sub, exp (a string), email_verified as "true".
          const found = accessTokens.get(url.searchParams.get("access_token") ?? "");
          if (!found) return send(400, { error: "invalid_token" });
          const { claims } = found;
          return send(200, {
            aud: found.clientId,
            azp: found.clientId,
            sub: claims.sub,
            exp: String(Math.floor(Date.now() / 1000) + (claims.expiresIn ?? 600)),
            ...(claims.email ? { email: claims.email, email_verified: String(claims.email_verified ?? false) } : {}),
          });
        }
        case "/debug_token": {
          const [app] = (url.searchParams.get("access_token") ?? "").split("|");
          const user = facebookTokens.get(url.searchParams.get("input_token") ?? "");
          if (!user) return send(200, { data: { is_valid: false, app_id: app } });
          return send(200, { data: { is_valid: true, app_id: user.appId, user_id: user.id } });
        }
        case "/me": {
          const user = facebookTokens.get(url.searchParams.get("access_token") ?? "");
          if (!user || !url.searchParams.get("appsecret_proof")) return send(400, { error: { message: "bad token" } });
          return send(200, {
            id: user.id,
            name: user.name,
            ...(user.email ? { email: user.email } : {}),
            picture: { data: { url: `https://graph.example.com/${user.id}.jpg` } },
          });
        }
        default:
          return send(404, { error: "not found" });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const sign = (claims: IdTokenClaims, key: CryptoKey) => {
    const { expiresIn = 600, aud = clientId, iss = issuer, sub, ...rest } = claims;
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT(rest)
      .setProtectedHeader({ alg: "RS256", kid })
      .setIssuer(iss)
      .setSubject(sub)
      .setAudience(aud)
      .setIssuedAt(now - 60)
      .setExpirationTime(now + expiresIn)
      .sign(key);
  };

  return {
    issuer,
    clientId,
    clientSecret,
    idToken: (claims) => sign(claims, privateKey),
    forgedIdToken: (claims) => sign(claims, other.privateKey),
    accessToken: (claims, forClient = clientId) => {
      const token = randomBytes(24).toString("base64url");
      accessTokens.set(token, { claims, clientId: forClient });
      return token;
    },
    facebookToken: (user) => {
      const token = `EAA${randomBytes(24).toString("hex")}`;
      facebookTokens.set(token, user);
      return token;
    },
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
