import { describe, expect, it } from "vitest";

import type { AdminRole } from "../../auth/roles";
import { getDb } from "../../db";
import { hashToken } from "../../security/secret-tokens";
import { createTestStaff, trpcCodeOf } from "../../testing/staff";

async function admin(slug: string, roles: AdminRole[]) {
  return (await createTestStaff(await getDb(), { account: slug, roles })).caller;
}

describe("oauthClients router", () => {
  it("registers a client (secret once, stored hashed), edits, rotates and revokes it, all audited", async () => {
    const owner = await admin("alpha", ["OWNER"]);
    const { client, clientSecret } = await owner.oauthClients.create({
      name: "  Reader app ",
      redirectUris: ["https://app.example.com/cb", "http://localhost:3000/cb"],
    });
    expect(client).toMatchObject({ name: "Reader app", revokedAt: null });
    expect(client.clientId).toMatch(/^mh_oc_[0-9a-f]{32}$/);
    expect(clientSecret).toMatch(/^mh_ocs_/);
    const db = await getDb();
    const row = await db.oAuthClient.findUniqueOrThrow({ where: { id: client.id }, omit: { secretHash: false } });
    expect(row.secretHash).toBe(hashToken(clientSecret));
    const listed = await owner.oauthClients.list();
    expect(JSON.stringify(listed)).not.toContain(clientSecret);
    expect(JSON.stringify(listed)).not.toContain(row.secretHash);

    const edited = await owner.oauthClients.update({ id: client.id, redirectUris: ["https://app.example.com/new"] });
    expect(edited.redirectUris).toEqual(["https://app.example.com/new"]);
    const { clientSecret: rotated } = await owner.oauthClients.rotateSecret({ id: client.id });
    expect(rotated).not.toBe(clientSecret);
    const revoked = await owner.oauthClients.revoke({ id: client.id });
    expect(revoked.revokedAt).not.toBeNull();
    expect(await trpcCodeOf(owner.oauthClients.rotateSecret({ id: client.id }))).toBe("CONFLICT");
    expect(await trpcCodeOf(owner.oauthClients.update({ id: client.id, name: "x" }))).toBe("CONFLICT");
    expect((await owner.oauthClients.revoke({ id: client.id })).revokedAt).toEqual(revoked.revokedAt);

    const audit = await db.auditLog.findMany({ orderBy: { createdAt: "asc" } });
    expect(audit.map((e) => e.action)).toEqual([
      "oauth_client.create",
      "oauth_client.update",
      "oauth_client.rotate_secret",
      "oauth_client.revoke",
    ]);
    expect(JSON.stringify(audit)).not.toContain(clientSecret);
    expect(JSON.stringify(audit)).not.toContain(rotated);
  });

  it("refuses bad redirect URIs and names, changing nothing", async () => {
    const owner = await admin("alpha", ["OWNER"]);
    for (const redirectUris of [
      [],
      ["http://app.example.com/cb"],
      ["https://app.example.com/cb#x"],
      ["https://user:pw@app.example.com/cb"],
      ["https://app.example.com"],
      ["javascript:alert(1)"],
      ["/relative"],
      ["https://app.example.com/cb", "https://app.example.com/cb"],
      Array.from({ length: 11 }, (_, i) => `https://app.example.com/${i}`),
    ]) {
      expect(
        await trpcCodeOf(owner.oauthClients.create({ name: "App", redirectUris })),
        JSON.stringify(redirectUris),
      ).toBe("BAD_REQUEST");
    }
    expect(await trpcCodeOf(owner.oauthClients.create({ name: " ", redirectUris: ["https://a.example.com/"] }))).toBe(
      "BAD_REQUEST",
    );
    expect(await owner.oauthClients.list()).toEqual([]);
  });

  it("is for owners only, and another account's client is NOT_FOUND", async () => {
    const owner = await admin("alpha", ["OWNER"]);
    const { client } = await owner.oauthClients.create({ name: "App", redirectUris: ["https://a.example.com/cb"] });
    for (const role of ["EDITOR", "MODERATOR", "REVENUE"] as const) {
      const other = await admin("alpha", [role]);
      expect(await trpcCodeOf(other.oauthClients.list())).toBe("FORBIDDEN");
    }
    const stranger = await admin("beta", ["OWNER"]);
    expect(await stranger.oauthClients.list()).toEqual([]);
    expect(await trpcCodeOf(stranger.oauthClients.rotateSecret({ id: client.id }))).toBe("NOT_FOUND");
    expect(await trpcCodeOf(stranger.oauthClients.revoke({ id: client.id }))).toBe("NOT_FOUND");
    expect(await trpcCodeOf(stranger.oauthClients.update({ id: client.id, name: "Mine" }))).toBe("NOT_FOUND");
  });
});
