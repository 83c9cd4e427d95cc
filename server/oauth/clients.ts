/**
 * Registered OAuth clients (dashboard, owners only): create, edit name and redirect URIs, rotate
 * the secret, revoke. Scoped to the actor's account (another account's client is NOT_FOUND), every
 * change audited in its transaction.
 *
 * A client's `clientId` ("mh_oc_" + 16 random bytes) is public; its secret ("mh_ocs_" + 32 random
 * bytes) is returned once, at creation or rotation, and only its SHA-256 is kept. Rotation ends
 * the old secret at once (a client is one application; it switches when its operator pastes the
 * new one). Revoking is final: the client can neither authorize nor exchange, and every token it
 * was given stops working.
 */
import "server-only";

import { randomBytes, timingSafeEqual } from "node:crypto";

import { recordAudit } from "../audit/audit-log";
import type { Actor } from "../auth/actor";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import type { OAuthClient, Prisma } from "../generated/prisma/client";
import { hashToken } from "../security/secret-tokens";
import { parseInput } from "../validation";
import {
  ZCreateOAuthClientInput,
  ZUpdateOAuthClientInput,
  type TCreateOAuthClientInput,
  type TOAuthClientView,
  type TUpdateOAuthClientInput,
} from "./clients.schema";

const newClientId = () => `mh_oc_${randomBytes(16).toString("hex")}`;
const newClientSecret = () => `mh_ocs_${randomBytes(32).toString("base64url")}`;

/** Whether `secret` is the client's, compared in constant time (digests of equal length). */
export function isClientSecret(client: Pick<OAuthClient, "secretHash">, secret: string): boolean {
  const given = Buffer.from(hashToken(secret), "hex");
  const expected = Buffer.from(client.secretHash, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A client row as queries return it: the secret's hash is left out unless asked for. */
type ClientRow = Omit<OAuthClient, "secretHash">;

function view(client: ClientRow): TOAuthClientView {
  const { accountId: _account, ...rest } = client;
  return rest;
}

async function getOwnedClient(db: Db, actor: Actor, id: string): Promise<ClientRow> {
  const client = await db.oAuthClient.findFirst({ where: { id, accountId: actor.accountId } });
  if (!client) throw new AppError("NOT_FOUND", "OAuth client not found.");
  return client;
}

function audit(db: Db, actor: Actor, action: string, id: string, metadata: Prisma.InputJsonObject = {}) {
  return recordAudit(db, { actor, action, targetType: "oauth_client", targetId: id, metadata });
}

export async function listOAuthClients(db: Db, { actor }: { actor: Actor }): Promise<TOAuthClientView[]> {
  const clients = await db.oAuthClient.findMany({
    where: { accountId: actor.accountId },
    orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }],
  });
  return clients.map(view);
}

/** Register a client; its secret is returned this once. */
export async function createOAuthClient(
  db: Db,
  args: { actor: Actor; input: TCreateOAuthClientInput; now: Date },
): Promise<{ client: TOAuthClientView; clientSecret: string }> {
  const input = parseInput(ZCreateOAuthClientInput, args.input);
  const clientSecret = newClientSecret();
  return withTransaction(db, async (tx) => {
    const client = await tx.oAuthClient.create({
      data: {
        accountId: args.actor.accountId,
        clientId: newClientId(),
        secretHash: hashToken(clientSecret),
        name: input.name,
        redirectUris: input.redirectUris,
        createdAt: args.now,
      },
    });
    await audit(tx, args.actor, "oauth_client.create", client.id, {
      clientId: client.clientId,
      name: client.name,
      redirectUris: client.redirectUris,
    });
    return { client: view(client), clientSecret };
  });
}

/** Change the name and/or the redirect URIs (the whole list). A revoked client cannot change. */
export async function updateOAuthClient(
  db: Db,
  args: { actor: Actor; input: TUpdateOAuthClientInput },
): Promise<TOAuthClientView> {
  const input = parseInput(ZUpdateOAuthClientInput, args.input);
  const current = await getOwnedClient(db, args.actor, input.id);
  if (current.revokedAt) throw new AppError("CONFLICT", "This client is revoked: register a new one.");
  return withTransaction(db, async (tx) => {
    const client = await tx.oAuthClient.update({
      where: { id: current.id },
      data: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.redirectUris !== undefined ? { redirectUris: input.redirectUris } : {}),
      },
    });
    await audit(tx, args.actor, "oauth_client.update", client.id, {
      ...(input.name !== undefined ? { name: { from: current.name, to: client.name } } : {}),
      ...(input.redirectUris !== undefined
        ? { redirectUris: { from: current.redirectUris, to: client.redirectUris } }
        : {}),
    });
    return view(client);
  });
}

/** A new secret, returned this once; the old one stops working at once. */
export async function rotateOAuthClientSecret(
  db: Db,
  args: { actor: Actor; id: string; now: Date },
): Promise<{ clientSecret: string }> {
  const current = await getOwnedClient(db, args.actor, args.id);
  if (current.revokedAt) throw new AppError("CONFLICT", "This client is revoked: register a new one.");
  const clientSecret = newClientSecret();
  await withTransaction(db, async (tx) => {
    await tx.oAuthClient.update({
      where: { id: current.id },
      data: { secretHash: hashToken(clientSecret), secretRotatedAt: args.now },
    });
    await audit(tx, args.actor, "oauth_client.rotate_secret", current.id, { clientId: current.clientId });
  });
  return { clientSecret };
}

/**
 * Revoke for good: no more authorizations or exchanges, and its live tokens are revoked (the
 * token check also refuses any token of a revoked client). Revoking twice changes nothing.
 */
export async function revokeOAuthClient(
  db: Db,
  args: { actor: Actor; id: string; now: Date },
): Promise<TOAuthClientView> {
  const current = await getOwnedClient(db, args.actor, args.id);
  if (current.revokedAt) return view(current);
  return withTransaction(db, async (tx) => {
    const client = await tx.oAuthClient.update({ where: { id: current.id }, data: { revokedAt: args.now } });
    const { count } = await tx.oAuthAccessToken.updateMany({
      where: { clientId: current.id, revokedAt: null },
      data: { revokedAt: args.now },
    });
    await audit(tx, args.actor, "oauth_client.revoke", client.id, { clientId: client.clientId, tokensRevoked: count });
    return view(client);
  });
}
