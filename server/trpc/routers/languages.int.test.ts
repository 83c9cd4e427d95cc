/**
 * languages.* (Settings → Languages): an owner sets the default locale and the locales offered and
 * edits the catalogue's words; other roles cannot; bad input is a clear 4xx that writes nothing; every
 * change is audited, and what keeps an account's messages is dropped at its commit.
 */
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import superjson from "superjson";
import { describe, expect, it } from "vitest";

import { messagesOf } from "@/i18n/messages";

import type { AdminSession } from "../../auth/admin-session";
import { ownWritesHeard } from "../../cache/process-cache";
import { responseCache } from "../../cache/response-cache";
import { getDb } from "../../db";
import type { Db } from "../../db/client";
import { accountLocales } from "../../i18n/locale-settings";
import { MESSAGES_PURGE_KEY } from "../../i18n/messages-cache";
import { enableResponseCache } from "../../testing/response-cache";
import { createAnonymousCaller, createTestStaff, createTestTeam, trpcCodeOf } from "../../testing/staff";
import { appRouter } from "../root";
import type { TRPCContext } from "../trpc";

enableResponseCache();

const english = messagesOf("widgets", "en");
/** A message with no argument, and one with exactly one ({name}…), from the real catalogue. */
const PLAIN = [...english.keys()].find((k) => !english.get(k)!.includes("{"))!;
const [WITH_ARG, WITH_ARG_TEXT] = [...english].find(([, m]) => /^[^{]*\{(\w+)\}[^{]*$/.test(m))!;
const ARG = /\{(\w+)\}/.exec(WITH_ARG_TEXT)![1]!;

/** One call over HTTP, as the dashboard makes it: the status and the error's code and details. */
async function post(path: string, input: unknown, session: AdminSession | null) {
  const db = await getDb();
  const response = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req: new Request(`http://localhost/api/trpc/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(superjson.serialize(input)),
    }),
    router: appRouter,
    createContext: (): TRPCContext => ({ db, session }),
  });
  const text = await response.text();
  const body = JSON.parse(text) as {
    error?: { json: { message: string; data: { appError?: { code: string; details?: { field: string }[] } } } };
  };
  return { status: response.status, error: body.error?.json, text };
}

const auditOf = (db: Db, accountId: number, action: string) =>
  db.auditLog.findMany({ where: { accountId, action }, orderBy: { createdAt: "asc" } });

describe("languages router: the default locale and the locales offered", () => {
  it("writes the language setting with the default, offers it always, audits and announces config-update", async () => {
    const db = await getDb();
    const { owner } = await createTestTeam(db, "lang-alpha", { owner: ["OWNER"] });
    const accountId = owner.account.id;
    const before = await owner.caller.languages.get();
    expect(before).toMatchObject({ defaultLocale: "en", offered: ["en", "hi", "ta", "es", "fr", "de", "pt-BR", "ar"] });
    expect(before.locales.find((l) => l.locale === "ar")).toEqual({ locale: "ar", name: "العربية", direction: "rtl" });

    const saved = await owner.caller.languages.update({ defaultLocale: "ar", offered: ["fr", "en"] });
    expect(saved.changed).toEqual(["defaultLocale", "offered"]);
    expect(saved.view).toMatchObject({
      defaultLocale: "ar",
      offered: ["en", "fr", "ar"],
      language: { isoCode: "ar", ietfCode: "ar", direction: "rtl" },
    });
    expect(await accountLocales(db, accountId)).toEqual({ defaultLocale: "ar", offered: ["en", "fr", "ar"] });
    const [entry] = await auditOf(db, accountId, "languages.update");
    expect(entry).toMatchObject({
      actorId: owner.user.id,
      targetType: "locale_settings",
      metadata: {
        changed: ["defaultLocale", "offered"],
        defaultLocale: { from: "en", to: "ar" },
        offered: { from: ["en", "hi", "ta", "es", "fr", "de", "pt-BR", "ar"], to: ["en", "fr", "ar"] },
      },
    });
    const events = await db.webhookEvent.findMany({ where: { accountId, name: "config-update" } });
    expect(events.map((e) => e.payload)).toMatchObject([{ changed: ["language"], "purge-keys": ["config"] }]);

    // The same again changes nothing and writes nothing.
    expect((await owner.caller.languages.update({ defaultLocale: "ar", offered: ["en", "fr"] })).changed).toEqual([]);
    expect(await auditOf(db, accountId, "languages.update")).toHaveLength(1);

    // Back to Hindi: a left-to-right language with its usual region.
    const hindi = await owner.caller.languages.update({ defaultLocale: "hi", offered: ["en", "fr"] });
    expect(hindi.view.language).toEqual({ isoCode: "hi", ietfCode: "hi-IN", direction: "ltr" });
    expect(hindi.view.offered).toEqual(["en", "hi", "fr"]);
  });

  it("keeps the account's own tag: a precise one for the same locale, and any while the default is not changed", async () => {
    const db = await getDb();
    const { owner } = await createTestTeam(db, "lang-beta", { owner: ["OWNER"] });
    const accountId = owner.account.id;
    // Malayalam: not shipped, so readers get English; saving the offered locales leaves it alone.
    await db.publisherConfig.create({
      data: { accountId, siteUrl: "", cdnImage: "", languageIsoCode: "ml", languageIetfCode: "ml-IN" },
    });
    const offeredOnly = await owner.caller.languages.update({ defaultLocale: "en", offered: ["en", "ta"] });
    expect(offeredOnly.changed).toEqual(["offered"]);
    expect(offeredOnly.view.language).toEqual({ isoCode: "ml", ietfCode: "ml-IN", direction: "ltr" });
    expect(await db.webhookEvent.count({ where: { accountId, name: "config-update" } })).toBe(0);

    await db.publisherConfig.update({
      where: { accountId },
      data: { languageIsoCode: "pt", languageIetfCode: "pt-PT" },
    });
    expect((await owner.caller.languages.get()).defaultLocale).toBe("pt-BR");
    const spanish = await owner.caller.languages.update({ defaultLocale: "es", offered: [] });
    expect(spanish.view).toMatchObject({ defaultLocale: "es", offered: ["es"], language: { ietfCode: "es-ES" } });
  });

  it("refuses other roles and bad input with a 4xx, writing nothing", async () => {
    const db = await getDb();
    const team = await createTestTeam(db, "lang-gamma", {
      owner: ["OWNER"],
      editor: ["EDITOR"],
      revenue: ["REVENUE"],
      moderator: ["MODERATOR"],
    });
    for (const staff of [team.editor, team.revenue, team.moderator]) {
      expect(await trpcCodeOf(staff.caller.languages.get())).toBe("FORBIDDEN");
      expect(await trpcCodeOf(staff.caller.languages.update({ defaultLocale: "ar", offered: [] }))).toBe("FORBIDDEN");
      expect((await post("languages.update", { defaultLocale: "ar", offered: [] }, staff.session)).status).toBe(403);
    }
    expect((await post("languages.update", { defaultLocale: "ar", offered: [] }, null)).status).toBe(401);
    for (const input of [
      { defaultLocale: "xx", offered: [] },
      { defaultLocale: "__proto__", offered: [] },
      { defaultLocale: "en", offered: ["en", "en"] },
      { defaultLocale: "en", offered: ["en-GB"] },
      { defaultLocale: "en", offered: "en" },
      { defaultLocale: "en" },
    ]) {
      const { status, error, text } = await post("languages.update", input, team.owner.session);
      expect({ input, status }).toEqual({ input, status: 400 });
      expect(error?.data.appError?.code).toBe("BAD_REQUEST");
      expect(text).not.toContain('"stack"');
    }
    expect(await accountLocales(db, team.owner.account.id)).toMatchObject({ defaultLocale: "en" });
    expect(await db.auditLog.count({ where: { accountId: team.owner.account.id } })).toBe(0);
  });
});

describe("languages router: overrides", () => {
  it("saves cleaned words, shows them beside English and the catalogue, audits each change, removes them", async () => {
    const db = await getDb();
    const owner = await createTestStaff(db, { roles: ["OWNER"] });
    const accountId = owner.account.id;
    const target = { surface: "widgets" as const, locale: "es" as const, key: WITH_ARG };

    const saved = await owner.caller.languages.saveOverride({ ...target, message: `  Hola, {${ARG}}\u200b\r\n` });
    expect(saved.message).toBe(`Hola, {${ARG}}\u200b`.trim());
    const { messages, direction } = await owner.caller.languages.messages({ surface: "widgets", locale: "es" });
    expect(direction).toBe("ltr");
    expect(messages).toHaveLength(english.size);
    const row = messages.find((m) => m.key === WITH_ARG)!;
    expect(row).toMatchObject({
      english: WITH_ARG_TEXT,
      catalogue: messagesOf("widgets", "es").get(WITH_ARG),
      override: saved.message,
      stale: null,
    });
    expect(row.arguments.map((a) => a.name)).toEqual([ARG]);
    expect((await owner.caller.languages.messages({ surface: "widgets", locale: "ar" })).direction).toBe("rtl");

    await owner.caller.languages.saveOverride({ ...target, message: `¡Hola, {${ARG}}!` });
    await owner.caller.languages.saveOverride({ ...target, message: `¡Hola, {${ARG}}!` }); // unchanged: not audited again
    const saves = await auditOf(db, accountId, "message_override.save");
    expect(saves.map((e) => e.metadata)).toEqual([
      { ...target, message: { from: null, to: saved.message } },
      { ...target, message: { from: saved.message, to: `¡Hola, {${ARG}}!` } },
    ]);
    expect(saves[0]).toMatchObject({ targetType: "message_override", targetId: `widgets/es/${WITH_ARG}` });

    expect(await owner.caller.languages.removeOverride(target)).toEqual({ removed: true });
    expect(await trpcCodeOf(owner.caller.languages.removeOverride(target))).toBe("NOT_FOUND");
    const [removal] = await auditOf(db, accountId, "message_override.remove");
    expect(removal?.metadata).toEqual({ ...target, message: { from: `¡Hola, {${ARG}}!`, to: null } });
    expect(await db.messageOverride.count({ where: { accountId } })).toBe(0);
  });

  it("refuses an unknown surface, locale or key, markup, broken ICU and a wrong argument with the reason", async () => {
    const db = await getDb();
    const { owner, editor } = await createTestTeam(db, "lang-delta", { owner: ["OWNER"], editor: ["EDITOR"] });
    const target = { surface: "widgets", locale: "fr", key: WITH_ARG };
    const cases: [unknown, number, string, RegExp][] = [
      [{ ...target, surface: "newsroom", message: "Bonjour" }, 400, "surface", /not valid/],
      [{ ...target, locale: "xx", message: "Bonjour" }, 400, "locale", /not valid/],
      [{ ...target, key: "__proto__", message: "Bonjour" }, 422, "key", /is not a message of the widgets catalogue/],
      [{ ...target, key: "noSuchKey", message: "Bonjour" }, 422, "key", /is not a message/],
      [{ ...target, message: "<b>Bonjour</b>" }, 422, "message", /markup/],
      [{ ...target, message: `Bonjour {${ARG}` }, 422, "message", /does not parse as ICU/],
      [
        { ...target, message: "Bonjour {secret}" },
        422,
        "message",
        new RegExp(`\\{secret\\} is not given.*\\{${ARG}\\}`),
      ],
      [{ ...target, message: " \u0007 " }, 422, "message", /empty/],
      [{ ...target, message: "x".repeat(2001) }, 422, "message", /longer than 2000/],
      [{ ...target, message: "x".repeat(9000) }, 400, "message", /not valid/],
    ];
    for (const [input, status, field, reason] of cases) {
      const answer = await post("languages.saveOverride", input, owner.session);
      expect({ input, status: answer.status }).toEqual({ input, status });
      expect(answer.error?.data.appError?.details?.[0]?.field).toBe(field);
      expect(answer.error?.message).toMatch(reason);
    }
    expect(await db.messageOverride.count({ where: { accountId: owner.account.id } })).toBe(0);
    expect(await db.auditLog.count({ where: { accountId: owner.account.id } })).toBe(0);
    expect((await post("languages.saveOverride", { ...target, message: "Bonjour" }, editor.session)).status).toBe(403);
    expect((await post("languages.removeOverride", target, editor.session)).status).toBe(403);
    expect(await trpcCodeOf(editor.caller.languages.messages({ surface: "widgets", locale: "fr" }))).toBe("FORBIDDEN");
    expect(await trpcCodeOf(createAnonymousCaller(db).languages.overrides())).toBe("UNAUTHORIZED");
    expect(await db.messageOverride.count()).toBe(0);
  });

  it("lists the overrides an upgrade left behind as stale, with the reason, and removes them", async () => {
    const db = await getDb();
    const owner = await createTestStaff(db, { roles: ["OWNER"] });
    const accountId = owner.account.id;
    await owner.caller.languages.saveOverride({ surface: "widgets", locale: "de", key: PLAIN, message: "Hallo" });
    // As an older catalogue would have left them: a key since removed, an argument since dropped.
    await db.messageOverride.createMany({
      data: [
        { accountId, surface: "widgets", locale: "de", key: "removedKey", message: "Tschüss" },
        { accountId, surface: "widgets", locale: "hi", key: PLAIN, message: "नमस्ते {gone}" },
      ],
    });
    const listed = await owner.caller.languages.overrides();
    expect(listed.map((o) => [o.locale, o.key, o.stale])).toEqual([
      ["de", PLAIN, null],
      ["de", "removedKey", expect.stringMatching(/"removedKey" is not a message/)],
      ["hi", PLAIN, expect.stringMatching(/\{gone\} is not given/)],
    ]);
    const hindi = await owner.caller.languages.messages({ surface: "widgets", locale: "hi" });
    expect(hindi.messages.find((m) => m.key === PLAIN)).toMatchObject({ override: "नमस्ते {gone}", stale: /gone/ });
    await owner.caller.languages.removeOverride({ surface: "widgets", locale: "de", key: "removedKey" });
    expect((await owner.caller.languages.overrides()).map((o) => o.key)).toEqual([PLAIN, PLAIN]);
  });
});

describe("what keeps an account's messages", () => {
  const kept = (accountId: number) => ({
    body: Buffer.from(`messages of ${accountId}`),
    contentType: "application/json",
    etag: String(accountId),
    tags: [MESSAGES_PURGE_KEY],
    headers: {},
  });

  it("is dropped at the commit of an override, a locale setting or a write by hand, for that account only", async () => {
    const db = await getDb();
    const owner = await createTestStaff(db, { roles: ["OWNER"] });
    const other = await createTestStaff(db, { roles: ["OWNER"] });
    const responses = responseCache();
    const keep = async () => {
      await ownWritesHeard(db);
      for (const staff of [owner, other]) {
        const id = staff.account.id;
        responses.set(`${id} /messages`, id, responses.generation(), kept(id));
      }
      expect(responses.get(`${owner.account.id} /messages`)).toBeDefined();
    };
    const dropped = async () => {
      await ownWritesHeard(db);
      expect(responses.get(`${owner.account.id} /messages`)).toBeUndefined();
      expect(responses.get(`${other.account.id} /messages`)).toBeDefined();
    };
    const target = { surface: "widgets" as const, locale: "ta" as const, key: PLAIN };

    await keep();
    await owner.caller.languages.saveOverride({ ...target, message: "வணக்கம்" });
    await dropped();
    await keep();
    await owner.caller.languages.removeOverride(target);
    await dropped();
    await keep();
    await owner.caller.languages.update({ defaultLocale: "ta", offered: [] });
    await dropped();
    await keep();
    await db.$executeRaw`UPDATE publisher_configs SET locales_offered = ARRAY['en'] WHERE account_id = ${owner.account.id}`;
    await dropped();

    // A settings save that leaves the language alone keeps them.
    await keep();
    await db.$executeRaw`UPDATE publisher_configs SET cdn_image = 'cdn.example.com' WHERE account_id = ${owner.account.id}`;
    await ownWritesHeard(db);
    expect(responses.get(`${owner.account.id} /messages`)).toBeDefined();
  });
});
