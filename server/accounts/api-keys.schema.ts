/**
 * The account's API keys as the dashboard shows them (server/auth/api-keys.ts): the prefix,
 * never the key; the key itself only once, in the answer of a rotation. zod only, for the forms.
 */
import { z } from "zod";

/** How long a rotated key keeps working, so clients can be moved to the new one without downtime. */
export const API_KEY_ROTATION_GRACE_HOURS = 24;

export const ZApiKeyView = z.object({
  id: z.uuid(),
  kind: z.enum(["CLIENT", "SERVER"]),
  name: z.string(),
  /** The first characters of the key ("mh_sk_3f9a"), to recognise it. */
  prefix: z.string(),
  createdAt: z.date(),
  lastUsedAt: z.date().nullable(),
  /** Set once rotated: the key works until then. */
  expiresAt: z.date().nullable(),
  revokedAt: z.date().nullable(),
  /** Works now (not revoked, not past its expiry). */
  live: z.boolean(),
});
export type TApiKeyView = z.infer<typeof ZApiKeyView>;

export const ZRotateApiKeyInput = z.object({ keyId: z.uuid("is not a key id") });
export type TRotateApiKeyInput = z.input<typeof ZRotateApiKeyInput>;

/** The new key, in clear, once; and the old one with its end of grace. */
export const ZRotatedApiKey = z.object({
  key: z.string(),
  created: ZApiKeyView,
  previous: ZApiKeyView,
});
export type TRotatedApiKey = z.infer<typeof ZRotatedApiKey>;

const ZApiKeyKind = z.enum(["CLIENT", "SERVER"]);

/** A new named key of a kind (owners); the key is returned once, only its digest is stored. */
export const ZCreateApiKeyInput = z.object({
  kind: ZApiKeyKind,
  name: z
    .string()
    .trim()
    .min(1, "give the key a name, e.g. the client that will use it")
    .max(100, "at most 100 characters"),
});
export type TCreateApiKeyInput = z.input<typeof ZCreateApiKeyInput>;

export const ZCreatedApiKey = z.object({ key: z.string(), created: ZApiKeyView });
export type TCreatedApiKey = z.infer<typeof ZCreatedApiKey>;

/** Revoking stops a key at once, a key in its rotation grace too. */
export const ZRevokeApiKeyInput = z.object({ keyId: z.uuid("is not a key id") });
export type TRevokeApiKeyInput = z.input<typeof ZRevokeApiKeyInput>;
