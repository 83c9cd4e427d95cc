/**
 * Social and OpenID Connect login (server/members/social-login.ts): the body of POST
 * /api/login/<provider> and an account's provider configuration (dashboard, OWNER). zod only.
 */
import { z } from "zod";

import { refuseNul } from "../publishing/content.schema";

/** Kinds of provider: any OpenID Connect issuer (Google, Apple, Microsoft, Auth0…), or Facebook's Graph API. */
const LOGIN_PROVIDER_KINDS = ["oidc", "facebook"] as const;
export type TLoginProviderKind = (typeof LOGIN_PROVIDER_KINDS)[number];

/** Names bridgekeeper-js and quintype-ruby use, with what they are when the owner sets only a client id. */
export const WELL_KNOWN_PROVIDERS: Record<string, { kind: TLoginProviderKind; issuer: string }> = {
  google: { kind: "oidc", issuer: "https://accounts.google.com" },
  apple: { kind: "oidc", issuer: "https://appleid.apple.com" },
  facebook: { kind: "facebook", issuer: "https://graph.facebook.com" },
};

/** The provider of publisher-JWT identities (server/members/identities.ts): not a login provider's name. */
const RESERVED_NAMES = new Set(["publisher"]);

const zProviderName = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, "must be 1 to 40 letters, digits, - or _, starting with a letter or digit")
  .refine((name) => !RESERVED_NAMES.has(name), "is reserved");

const zBaseUrl = z
  .string()
  .trim()
  .max(500, "must be at most 500 characters")
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "https:" || url.protocol === "http:") && !url.search && !url.hash && !url.username;
    } catch {
      return false;
    }
  }, "must be an http(s) URL without query, fragment or credentials")
  .transform((value) => value.replace(/\/+$/, ""));

const zToken = z.string().trim().min(1, "is required").max(8192, "is too long");

/** POST /api/login/<provider>: bridgekeeper's createSession sends {token, "set-session": true}. */
export const ZSocialLoginInput = refuseNul(
  z.object({
    /**
     * The provider's token: a string (an ID token when it is a JWT, else an access token), or
     * what bridgekeeper's Google and Facebook wrappers send, {"access-token": "…"} (or
     * {"id-token": "…"}).
     */
    token: z.union([
      zToken.transform((value) => ({ value, kind: "auto" as const })),
      z
        .object({ "access-token": zToken.optional(), "id-token": zToken.optional() })
        .refine((t) => Boolean(t["access-token"]) !== Boolean(t["id-token"]), {
          message: 'send one of "access-token" and "id-token"',
        })
        .transform((t) =>
          t["id-token"]
            ? { value: t["id-token"], kind: "id" as const }
            : { value: t["access-token"]!, kind: "access" as const },
        ),
    ]),
    /** true: start a member session (X-QT-AUTH and cookies), as /api/auth/v1/login does. */
    "set-session": z.boolean().optional(),
    /** The nonce the page put in its authentication request; the ID token must carry it. */
    nonce: z.string().max(500).optional(),
  }),
);

/** The path parameter of /api/login/<provider>. */
export const ZSocialLoginParams = z.object({ provider: z.string().max(100) });

/**
 * Save (create or replace) one provider of the account. `issuer` defaults for the well-known
 * names; `clientSecret` left out keeps the stored one.
 */
export const ZSaveLoginProviderInput = refuseNul(
  z
    .object({
      name: zProviderName,
      kind: z.enum(LOGIN_PROVIDER_KINDS).optional(),
      issuer: zBaseUrl.optional(),
      clientIds: z
        .array(z.string().trim().min(1, "must not be empty").max(300, "must be at most 300 characters"))
        .min(1, "give at least one client id")
        .max(10, "at most 10 client ids"),
      clientSecret: z.string().trim().min(1).max(500).optional(),
      enabled: z.boolean().default(true),
    })
    .transform((input, ctx) => {
      const known = Object.hasOwn(WELL_KNOWN_PROVIDERS, input.name) ? WELL_KNOWN_PROVIDERS[input.name] : undefined;
      const kind = input.kind ?? known?.kind;
      const issuer = input.issuer ?? (known && known.kind === kind ? known.issuer : undefined);
      if (!kind) {
        ctx.addIssue({ code: "custom", path: ["kind"], message: "is required for a provider of this name" });
        return z.NEVER;
      }
      if (!issuer) {
        ctx.addIssue({ code: "custom", path: ["issuer"], message: "is required for a provider of this name" });
        return z.NEVER;
      }
      if (kind === "facebook" && input.clientIds.length !== 1) {
        ctx.addIssue({ code: "custom", path: ["clientIds"], message: "give exactly one Facebook app id" });
        return z.NEVER;
      }
      return { ...input, kind, issuer, clientIds: [...new Set(input.clientIds)] };
    }),
);
export type TSaveLoginProviderInput = z.output<typeof ZSaveLoginProviderInput>;

export const ZDeleteLoginProviderInput = z.object({ name: zProviderName });

/** A provider as the dashboard sees it: never the secret, only whether one is set. */
export const ZLoginProviderView = z.object({
  name: z.string(),
  kind: z.enum(LOGIN_PROVIDER_KINDS),
  issuer: z.string(),
  clientIds: z.array(z.string()),
  hasClientSecret: z.boolean(),
  enabled: z.boolean(),
  updatedAt: z.date(),
});
export type TLoginProviderView = z.infer<typeof ZLoginProviderView>;
