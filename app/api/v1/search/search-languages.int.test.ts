// Story search in the account's language: the stories are indexed, and the query read, with the
// text-search configuration of publisher_configs.language_iso_code (stemmed where PostgreSQL has
// one, `simple` where it has none), on PGlite and PostgreSQL alike.
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { NO_PARAMS, readJson } from "@/server/testing/newsroom-fixture";
import { createTestPublisher, insertStory, textCards } from "@/server/testing/publishing-factories";
import { createTestStaff } from "@/server/testing/staff";

import * as searchRoute from "./route";

type Results = { results: { total: number; stories: { id: string }[] } };

async function found(q: string): Promise<string[]> {
  const res = await searchRoute.GET(
    new Request(`http://localhost/api/v1/search?q=${encodeURIComponent(q)}`),
    NO_PARAMS,
  );
  expect(res.status, q).toBe(200);
  return (await readJson<Results>(res)).results.stories.map((s) => s.id);
}

async function publisherIn(db: Db, languageIsoCode: string) {
  forgetPublisherCache();
  const account = await createTestPublisher(db);
  await db.publisherConfig.update({ where: { accountId: account.id }, data: { languageIsoCode } });
  return account;
}

const configOf = async (db: Db, storyId: string) =>
  (
    await db.$queryRaw<
      { config: string }[]
    >`SELECT search_config::text AS config FROM stories WHERE id = ${storyId}::uuid`
  )[0]!.config;

/** One story a language, in that language: the inflected forms in the text, a base form to search for. */
const LANGUAGES = [
  {
    iso: "hi",
    config: "hindi",
    headline: "गाँव में फसल की कटाई",
    text: "किसानों ने नई फसल की कटाई शुरू की।",
    stem: "किसान",
    exact: "किसानों",
  },
  {
    iso: "ta",
    config: "tamil",
    headline: "கிராமத்தில் அறுவடை",
    text: "விவசாயிகள் புதிய பயிர்களை அறுவடை செய்தனர்.",
    stem: "விவசாயி",
    exact: "விவசாயிகள்",
  },
  {
    iso: "ar",
    config: "arabic",
    headline: "موسم الحصاد في القرية",
    text: "المزارعون بدأوا حصاد المحاصيل الجديدة.",
    stem: "مزارع",
    exact: "المزارعون",
  },
  {
    iso: "es",
    config: "spanish",
    headline: "Temporada de cosecha en el pueblo",
    text: "Los agricultores comenzaron la cosecha de cultivos nuevos.",
    stem: "agricultor",
    exact: "agricultores",
  },
  {
    iso: "en",
    config: "english",
    headline: "Harvest season in the village",
    text: "The farmers started harvesting the new crops.",
    stem: "farmer",
    exact: "farmers",
  },
] as const;

describe("story search in the account's language", () => {
  for (const lang of LANGUAGES) {
    it(`stems ${lang.config} (${lang.iso}): an inflected form finds the story, and only the account's language is used`, async () => {
      const db = await getDb();
      const account = await publisherIn(db, lang.iso);
      const story = await insertStory(db, account.id, {
        headline: lang.headline,
        slug: `harvest-${lang.iso}`,
        cards: textCards(lang.text),
      });
      const other = await insertStory(db, account.id, {
        headline: "Giraffes at the zoo",
        slug: "giraffes",
        cards: textCards("Nothing to see."),
      });
      expect(await configOf(db, story.id)).toBe(lang.config);
      expect(await found(lang.stem)).toEqual([story.id]);
      expect(await found(lang.exact)).toEqual([story.id]);
      expect(await found(`${lang.exact} -${lang.stem}`)).toEqual([]);
      expect(await found("giraffes")).toEqual([other.id]);
    });
  }

  it("ranks a headline match above a text match in Hindi", async () => {
    const db = await getDb();
    const account = await publisherIn(db, "hi");
    const inText = await insertStory(db, account.id, {
      headline: "मौसम का हाल",
      slug: "mausam",
      cards: textCards("बारिश के बाद किसानों को राहत मिली।"),
    });
    const inHeadline = await insertStory(db, account.id, {
      headline: "किसानों की बड़ी जीत",
      slug: "jeet",
      cards: textCards("सरकार ने मांगें मान लीं।"),
      publishedAt: new Date(Date.now() - 3_600_000),
    });
    expect(await found("किसान")).toEqual([inHeadline.id, inText.id]);
  });

  it("uses `simple` for a language PostgreSQL has no configuration for: exact words only", async () => {
    const db = await getDb();
    // Malayalam: no snowball stemmer, no configuration.
    const account = await publisherIn(db, "ml");
    const story = await insertStory(db, account.id, {
      headline: "കർഷകരുടെ വിളവെടുപ്പ്",
      slug: "vilaveduppu",
      cards: textCards("കർഷകർ പുതിയ വിള കൊയ്തു. 🌾 Farmers harvested."),
    });
    expect(await configOf(db, story.id)).toBe("simple");
    expect(await found("കർഷകർ")).toEqual([story.id]);
    expect(await found("കർഷകരുടെ")).toEqual([story.id]);
    expect(await found("farmers")).toEqual([story.id]);
    // `simple` does not stem: a form the text does not hold finds nothing.
    expect(await found("farmer")).toEqual([]);
    expect(await found("കർഷക")).toEqual([]);
  });

  it("re-indexes an account's stories when its language changes from English to Hindi", async () => {
    const db = await getDb();
    const account = await publisherIn(db, "en");
    const story = await insertStory(db, account.id, {
      headline: "किसानों की बड़ी जीत",
      slug: "jeet",
      cards: textCards("Farmers celebrated. किसानों ने जश्न मनाया।"),
    });
    expect(await configOf(db, story.id)).toBe("english");
    // English has no Hindi stemmer: the Hindi words are indexed as written.
    expect(await found("किसान")).toEqual([]);
    expect(await found("farmer")).toEqual([story.id]);

    await db.publisherConfig.update({ where: { accountId: account.id }, data: { languageIsoCode: "hi" } });
    expect(await configOf(db, story.id)).toBe("hindi");
    expect(await found("किसान")).toEqual([story.id]);
    // PostgreSQL's hindi configuration reads words in Latin letters with the English stemmer.
    expect(await found("farmer")).toEqual([story.id]);

    // A story written after the change is indexed in Hindi too; another account keeps its own.
    const later = await insertStory(db, account.id, {
      headline: "किसान मेला",
      slug: "mela",
      cards: textCards("किसानों का मेला।"),
    });
    expect(await configOf(db, later.id)).toBe("hindi");
    const other = await createTestPublisher(db);
    const elsewhere = await insertStory(db, other.id, { headline: "Farmers", slug: "farmers" });
    expect(await configOf(db, elsewhere.id)).toBe("english");
  });

  it("finds stories in the dashboard's story finder with the account's configuration too", async () => {
    const db = await getDb();
    const account = await publisherIn(db, "hi");
    const { caller } = await createTestStaff(db, { account: account.id, roles: ["EDITOR"] });
    const story = await insertStory(db, account.id, {
      headline: "गाँव में फसल की कटाई",
      slug: "katai",
      cards: textCards("किसानों ने नई फसल की कटाई शुरू की।"),
    });
    await insertStory(db, account.id, { headline: "मौसम", slug: "mausam", cards: textCards("बारिश हुई।") });
    for (const search of ["किसान", "किसानों", "फसल कट"]) {
      expect(
        (await caller.stories.list({ search })).items.map((s) => s.id),
        search,
      ).toEqual([story.id]);
    }
  });

  it("maps language codes to configurations the database has, and anything else to simple", async () => {
    const db = await getDb();
    const rows = await db.$queryRaw<{ code: string | null; config: string }[]>`
      SELECT code, search_language_ts_config(code)::text AS config
      FROM unnest(ARRAY['en', 'EN', 'en-GB', 'pt_BR', 'hi', 'ta', 'ar', 'es', 'ml', 'bn', 'zz', '', NULL]::text[]) AS code`;
    expect(rows.map((r) => [r.code, r.config])).toEqual([
      ["en", "english"],
      ["EN", "english"],
      ["en-GB", "english"],
      ["pt_BR", "portuguese"],
      ["hi", "hindi"],
      ["ta", "tamil"],
      ["ar", "arabic"],
      ["es", "spanish"],
      ["ml", "simple"],
      ["bn", "simple"],
      ["zz", "simple"],
      ["", "simple"],
      [null, "simple"],
    ]);
  });
});
