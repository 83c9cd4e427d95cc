/**
 * A small newsroom for the read API tests: two sections (one with a sub-section), authors, tags,
 * published stories at known times, and one story in every unpublished state, each placed where
 * it would show up if the status filter were missing (same sections, tags, words, collections).
 */
import type { Db } from "../db/client";
import { forgetPublisherCache } from "../publishing/publisher";
import {
  createTestPublisher,
  insertAuthor,
  insertSection,
  insertStory,
  insertTag,
  textCards,
} from "./publishing-factories";

const HOUR = 3_600_000;

export async function seedNewsroom(db: Db, now = Date.now()) {
  forgetPublisherCache();
  const account = await createTestPublisher(db, { siteUrl: "https://news.example.com" });
  const politics = await insertSection(db, account.id, { name: "Politics", slug: "politics" });
  const elections = await insertSection(db, account.id, {
    name: "Elections",
    slug: "elections",
    parentId: politics.id,
  });
  const sport = await insertSection(db, account.id, { name: "Sport", slug: "sport", withCollection: true });
  const ada = await insertAuthor(db, account.id, { name: "Ada Lovelace", slug: "ada-lovelace" });
  const grace = await insertAuthor(db, account.id, { name: "Grace Hopper", slug: "grace-hopper" });
  const budget = await insertTag(db, account.id, { name: "Budget", slug: "budget" });
  const football = await insertTag(db, account.id, { name: "Football", slug: "football" });

  const at = (hoursAgo: number) => new Date(now - hoursAgo * HOUR);
  const budgetVote = await insertStory(db, account.id, {
    headline: "Parliament passes the budget",
    subheadline: "A long night in the chamber",
    slug: "politics/2026/parliament-passes-the-budget",
    cards: textCards("Members voted late on Tuesday after a marathon debate about taxes."),
    sectionIds: [politics.id],
    authorIds: [ada.id],
    tagIds: [budget.id],
    publishedAt: at(1),
  });
  const pollsOpen = await insertStory(db, account.id, {
    headline: "Polls open across the country",
    slug: "polls-open",
    storyTemplate: "live-blog",
    cards: textCards("Voters queued before dawn. The budget was on everyone's mind."),
    sectionIds: [elections.id],
    authorIds: [grace.id, ada.id],
    publishedAt: at(2),
  });
  const cupFinal = await insertStory(db, account.id, {
    headline: "Cup final ends in a draw",
    slug: "sport/cup-final",
    cards: textCards("Ninety minutes and no goals: the replay is next week."),
    sectionIds: [sport.id],
    authorIds: [grace.id],
    tagIds: [football.id, budget.id],
    publishedAt: at(3),
    isBreakingNews: true,
  });
  // Later republished: first by last-published-at.
  await db.story.update({
    where: { id: cupFinal.id },
    data: {
      lastPublishedAt: at(0.5),
      externalId: "legacy-42",
      metadata: { "story-attributes": { "disable-amp-for-single-story": ["true"] } },
    },
  });

  const unpublished = [];
  for (const status of ["DRAFT", "SUBMITTED", "APPROVED", "RETRACTED"] as const) {
    unpublished.push(
      await insertStory(db, account.id, {
        headline: `Secret budget plan ${status.toLowerCase()}`,
        slug: `politics/secret-budget-${status.toLowerCase()}`,
        status,
        cards: textCards("The budget leak nobody should read yet. Parliament taxes."),
        sectionIds: [politics.id],
        authorIds: [ada.id],
        tagIds: [budget.id, football.id],
        isBreakingNews: true,
      }),
    );
  }
  // A retracted story that was once published still has its publication times: it must stay hidden.
  await db.story.update({
    where: { id: unpublished[3]!.id },
    data: { publishedAt: at(0.1), firstPublishedAt: at(0.1), lastPublishedAt: at(0.1), externalId: "legacy-retracted" },
  });

  return {
    account,
    sections: { politics, elections, sport },
    authors: { ada, grace },
    tags: { budget, football },
    stories: { budgetVote, pollsOpen, cupFinal },
    unpublished,
  };
}

export type Newsroom = Awaited<ReturnType<typeof seedNewsroom>>;

/** home (manual): budget story, a draft, the sport section collection, the cup final, a deleted collection, politics picks. */
export async function seedCollections(db: Db, n: Newsroom) {
  const accountId = n.account.id;
  const sportCollection = (await db.collection.findFirst({ where: { accountId, slug: "section-sport" } }))!;
  const politicsPicks = await db.collection.create({
    data: { accountId, slug: "politics-picks", name: "Politics picks", automated: true, rules: {}, template: "grid" },
  });
  await db.section.update({ where: { id: n.sections.politics.id }, data: { collectionId: politicsPicks.id } });
  const gone = await db.collection.create({ data: { accountId, slug: "gone", name: "Gone", deletedAt: new Date() } });
  const home = await db.collection.create({
    data: { accountId, slug: "home", name: "Home", summary: "The front page", metadata: { colour: "red" } },
  });
  const items = [
    { storyId: n.stories.budgetVote.id, associatedMetadata: { layout: "hero" } },
    { storyId: n.unpublished[0]!.id },
    { childCollectionId: sportCollection.id, associatedMetadata: { layout: "four-col" } },
    { storyId: n.stories.cupFinal.id },
    { childCollectionId: gone.id },
    { storyId: n.unpublished[3]!.id },
    { childCollectionId: politicsPicks.id },
  ];
  await db.collectionItem.createMany({
    data: items.map((item, position) => ({
      collectionId: home.id,
      position: (items.length - position) * -10,
      ...item,
    })),
  });
  return { home, sportCollection, politicsPicks, gone };
}

/** Members voting on a story: +1 each for `up`, -1 each for `down`. */
export async function vote(db: Db, accountId: number, storyId: string, up: number, down: number) {
  for (let i = 0; i < up + down; i++) {
    const member = await db.member.create({
      data: {
        accountId,
        name: `Voter ${i}`,
        email: `voter-${storyId.slice(0, 8)}-${i}@example.com`,
        passwordHash: "x",
      },
    });
    await db.storyVote.create({ data: { storyId, memberId: member.id, magnitude: i < up ? 1 : -1 } });
  }
}

export const NO_PARAMS = { params: Promise.resolve({}) };
export const withParams = (params: Record<string, string>) => ({ params: Promise.resolve(params) });

export async function readJson<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}
