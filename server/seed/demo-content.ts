/**
 * The demo publisher's content: what a newcomer sees in the read API, the feeds and the dashboard
 * right after `npm start` (one file over 500 lines: mostly the demo's own words, as data). For the demo account it creates, when missing:
 *
 * - a PublisherConfig (site URL = APP_URL, image CDN = Masthead's own /images, settings, SEO,
 *   theme, AMP config);
 * - 6 sections and 1 child section, each with its automated section collection;
 * - 6 authors with bios, 12 tags, people, organisations and a team with its "players";
 * - 36 published stories with text, image, YouTube and tweet elements and hero images, spread over
 *   the last three weeks; 2 drafts; 1 breaking news story that expires in 3 days;
 * - collections: "home" (manual: stories, then the section collections as children),
 *   "editors-picks" (manual) and "technology-and-business" (automated by rules).
 *
 * Hero and inline images are real PNG files drawn in code and put in the image storage (UPLOAD_DIR,
 * or the S3 bucket when configured) with ImageAsset rows, keyed like uploads, so GET /images/<key>
 * serves them.
 *
 * Idempotent: every row is looked up by its slug (or key) first and only created when missing, so a
 * second run changes nothing, and edits made in the dashboard survive.
 */
import type { Db } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import { cardsPlainText, readTimeMinutes } from "../publishing/story-view";
import { diskImageStorage, type ImageStorage } from "../storage/image-storage";
import type { SeedReport } from "./demo";
import { demoCards, demoSlug } from "./demo-cards";
import { ensureImage, type DemoImage } from "./demo-images";
import { seedPublisherConfig } from "./demo-publisher";
import { BREAKING, DEMO_STORIES, DRAFTS, type StorySpec } from "./demo-stories";

// ─── The corpus ──────────────────────────────────────────────────────────────────────────────

type SectionSpec = { slug: string; name: string; parent?: string; colours: [string, string] };
const DEMO_SECTIONS: SectionSpec[] = [
  { slug: "politics", name: "Politics", colours: ["#7b1e1e", "#e0a458"] },
  { slug: "world", name: "World", colours: ["#12355b", "#6fb1c8"] },
  { slug: "business", name: "Business", colours: ["#1b4332", "#95d5b2"] },
  { slug: "technology", name: "Technology", colours: ["#240046", "#7b2cbf"] },
  { slug: "sport", name: "Sport", colours: ["#003049", "#fcbf49"] },
  { slug: "culture", name: "Culture", colours: ["#6a040f", "#f48c06"] },
  { slug: "football", name: "Football", parent: "sport", colours: ["#081c15", "#52b788"] },
];

const DEMO_AUTHORS = [
  {
    slug: "amara-okafor",
    name: "Amara Okafor",
    twitter: "amaraokafor",
    bio: "Political correspondent. Covers parliament, elections and the people who run them. Previously at the regional desk.",
  },
  {
    slug: "lukas-brandt",
    name: "Lukas Brandt",
    twitter: "lukasbrandt",
    bio: "World affairs editor, based in Berlin. Writes about diplomacy, trade and the European Union.",
  },
  {
    slug: "priya-raman",
    name: "Priya Raman",
    twitter: "priyaraman",
    bio: "Business reporter following markets, central banks and the companies that move them.",
  },
  {
    slug: "tom-whitaker",
    name: "Tom Whitaker",
    twitter: "tomwhitaker",
    bio: "Technology writer. Artificial intelligence, open source and the economics of the internet.",
  },
  {
    slug: "sofia-marquez",
    name: "Sofía Márquez",
    twitter: "sofiamarquez",
    bio: "Sports journalist and former semi-professional footballer. Covers football and the Olympic sports.",
  },
  {
    slug: "jonah-kim",
    name: "Jonah Kim",
    twitter: "jonahkim",
    bio: "Culture critic: film, music, books and the festivals in between.",
  },
];

const DEMO_TAGS = [
  ["elections", "Elections"],
  ["climate", "Climate"],
  ["economy", "Economy"],
  ["artificial-intelligence", "Artificial intelligence"],
  ["startups", "Startups"],
  ["football", "Football"],
  ["olympics", "Olympics"],
  ["film", "Film"],
  ["music", "Music"],
  ["health", "Health"],
  ["europe", "Europe"],
  ["trade", "Trade"],
] as const;

type EntitySpec = { key: string; name: string; type: string; slug: string; metadata?: Record<string, unknown> };
const DEMO_ENTITIES: EntitySpec[] = [
  {
    key: "alvarez",
    name: "Maria Alvarez",
    type: "person",
    slug: "maria-alvarez",
    metadata: { role: "Prime minister" },
  },
  {
    key: "osei",
    name: "Daniel Osei",
    type: "person",
    slug: "daniel-osei",
    metadata: { role: "Leader of the opposition" },
  },
  { key: "ecb", name: "European Central Bank", type: "organisation", slug: "european-central-bank" },
  {
    key: "opengrid",
    name: "OpenGrid Labs",
    type: "organisation",
    slug: "opengrid-labs",
    metadata: { industry: "Artificial intelligence" },
  },
  { key: "un", name: "United Nations", type: "organisation", slug: "united-nations" },
  {
    key: "riverside",
    name: "Riverside United",
    type: "team",
    slug: "riverside-united",
    metadata: { founded: 1894, stadium: "Mill Lane" },
  },
  { key: "okoro", name: "Chidi Okoro", type: "person", slug: "chidi-okoro", metadata: { position: "Striker" } },
  {
    key: "lindqvist",
    name: "Erik Lindqvist",
    type: "person",
    slug: "erik-lindqvist",
    metadata: { position: "Goalkeeper" },
  },
  { key: "moreau", name: "Luc Moreau", type: "person", slug: "luc-moreau", metadata: { position: "Midfielder" } },
];
const TEAM_PLAYERS = ["okoro", "lindqvist", "moreau"];

// ─── The seed ────────────────────────────────────────────────────────────────────────────────

type DemoContentOptions = {
  accountId: number;
  appUrl: string;
  uploadDir: string;
  /** Where the images go (S3 when configured); default: the disk under `uploadDir`. */
  images?: ImageStorage;
  now?: Date;
};
type DemoContentSummary = {
  storySlugs: string[];
  draftSlugs: string[];
  breakingSlug: string;
  sectionSlugs: string[];
  collectionSlugs: string[];
};

/**
 * Create whatever of the demo content is missing. Adds one line to `report` summarising what it
 * created ("demo content: 39 stories, 14 images, …"), none on a re-run that finds everything.
 */
export async function seedDemoContent(
  db: Db,
  options: DemoContentOptions,
  seedReport: SeedReport = { created: [] },
): Promise<DemoContentSummary> {
  const report: SeedReport = { created: [] };
  const summary = await seedContent(db, options, report);
  if (report.created.length > 0) {
    const counts = new Map<string, number>();
    for (const line of report.created) {
      const kind = line.split(" ")[0]!;
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
    seedReport.created.push(
      `demo content (${[...counts].map(([kind, n]) => (kind === "publisher" ? "publisher config" : `${n} ${kind === "story" ? "stories" : kind === "entity" ? "entities" : kind === "relationship" ? "relationships" : `${kind}s`}`)).join(", ")})`,
    );
  }
  return summary;
}

/** The demo's content, step by step; each step makes only what is missing (the seed runs again safely). */
async function seedContent(db: Db, options: DemoContentOptions, report: SeedReport): Promise<DemoContentSummary> {
  const { accountId } = options;
  const now = options.now ?? new Date();
  await seedPublisherConfig(
    db,
    {
      accountId,
      appUrl: options.appUrl,
      menu: DEMO_SECTIONS.filter((sec) => !sec.parent).map((sec) => ({ title: sec.name, url: `/${sec.slug}` })),
    },
    report,
  );
  const demoImages = await seedImages(db, options, report);
  const sections = await seedSections(db, accountId, report);
  const { authors, tags, entities } = await seedTaxonomy(db, accountId, report);
  const { published, breaking, drafts } = await seedStories(
    { db, accountId, now, report },
    { demoImages, sections, authors, tags, entities },
  );
  await seedCollections({ db, accountId, now, report }, { published, breaking, sections });

  return {
    storySlugs: published.map((s) => s.slug),
    draftSlugs: drafts.map((d) => d.slug),
    breakingSlug: breaking.slug,
    sectionSlugs: DEMO_SECTIONS.map((s) => s.slug),
    collectionSlugs: [
      "home",
      "editors-picks",
      "technology-and-business",
      ...DEMO_SECTIONS.map((s) => `section-${s.slug}`),
    ],
  };
}

type Seeding = { db: Db; accountId: number; now: Date; report: SeedReport };
type SectionImages = Map<string, { hero: DemoImage; inline: DemoImage }>;

/** Images: one hero and one inline picture per section. */
async function seedImages(db: Db, options: DemoContentOptions, report: SeedReport): Promise<SectionImages> {
  const { accountId } = options;
  const images = options.images ?? diskImageStorage(options.uploadDir);
  const demoImages = new Map<string, { hero: DemoImage; inline: DemoImage }>();
  for (const [i, section] of DEMO_SECTIONS.entries()) {
    demoImages.set(section.slug, {
      hero: await ensureImage(db, {
        accountId,
        images,
        name: `${section.slug}-hero`,
        colours: section.colours,
        bands: 3 + i,
        report,
      }),
      inline: await ensureImage(db, {
        accountId,
        images,
        name: `${section.slug}-inline`,
        colours: [section.colours[1], section.colours[0]],
        bands: 9 + i,
        report,
      }),
    });
  }
  return demoImages;
}

/** Sections, each with its automated section collection. */
async function seedSections(db: Db, accountId: number, report: SeedReport): Promise<Map<string, number>> {
  const sections = new Map<string, number>();
  for (const [position, spec] of DEMO_SECTIONS.entries()) {
    let section = await db.section.findUnique({ where: { accountId_slug: { accountId, slug: spec.slug } } });
    if (!section) {
      section = await db.section.create({
        data: {
          accountId,
          name: spec.name,
          displayName: spec.name,
          slug: spec.slug,
          parentId: spec.parent ? sections.get(spec.parent)! : null,
          position,
        },
      });
      report.created.push(`section ${spec.slug}`);
    }
    if (!section.collectionId) {
      const slug = `section-${spec.slug}`;
      const collection =
        (await db.collection.findUnique({ where: { accountId_slug: { accountId, slug } } })) ??
        (await db.collection.create({
          data: { accountId, slug, name: spec.name, automated: true, rules: { "section-ids": [section.id] } },
        }));
      await db.section.update({ where: { id: section.id }, data: { collectionId: collection.id } });
      report.created.push(`collection ${slug}`);
    }
    sections.set(spec.slug, section.id);
  }
  return sections;
}

/** Authors, tags, entities and the team's players. */
async function seedTaxonomy(db: Db, accountId: number, report: SeedReport) {
  const authors: number[] = [];
  for (const spec of DEMO_AUTHORS) {
    let author = await db.author.findUnique({
      where: { accountId_slug: { accountId, slug: spec.slug } },
      select: { id: true },
    });
    if (!author) {
      author = await db.author.create({
        data: {
          accountId,
          name: spec.name,
          slug: spec.slug,
          bio: spec.bio,
          twitterHandle: spec.twitter,
          email: `${spec.slug}@demo.masthead.test`,
        },
        select: { id: true },
      });
      report.created.push(`author ${spec.slug}`);
    }
    authors.push(author.id);
  }
  const tags = new Map<string, number>();
  for (const [slug, name] of DEMO_TAGS) {
    let tag = await db.tag.findUnique({ where: { accountId_slug: { accountId, slug } }, select: { id: true } });
    if (!tag) {
      tag = await db.tag.create({
        data: { accountId, slug, name, metaDescription: `Stories about ${name.toLowerCase()}.` },
        select: { id: true },
      });
      report.created.push(`tag ${slug}`);
    }
    tags.set(slug, tag.id);
  }
  const entities = new Map<string, number>();
  for (const spec of DEMO_ENTITIES) {
    let entity = await db.entity.findFirst({
      where: { accountId, slug: spec.slug, type: spec.type },
      select: { id: true },
    });
    if (!entity) {
      entity = await db.entity.create({
        data: {
          accountId,
          name: spec.name,
          type: spec.type,
          slug: spec.slug,
          metadata: (spec.metadata ?? {}) as Prisma.InputJsonValue,
        },
        select: { id: true },
      });
      report.created.push(`entity ${spec.slug}`);
    }
    entities.set(spec.key, entity.id);
  }
  for (const [rank, player] of TEAM_PLAYERS.entries()) {
    const key = { fromEntityId: entities.get("riverside")!, relation: "players", toEntityId: entities.get(player)! };
    if (
      !(await db.entityRelationship.findUnique({
        where: { fromEntityId_relation_toEntityId: key },
        select: { id: true },
      }))
    ) {
      await db.entityRelationship.create({ data: { ...key, rank } });
      report.created.push(`relationship riverside-united players ${player}`);
    }
  }
  return { authors, tags, entities };
}

/** Stories: published ones a few hours apart, the breaking one, and drafts. */
async function seedStories(
  { db, accountId, now, report }: Seeding,
  {
    demoImages,
    sections,
    authors,
    tags,
    entities,
  }: {
    demoImages: SectionImages;
    sections: Map<string, number>;
    authors: number[];
    tags: Map<string, number>;
    entities: Map<string, number>;
  },
) {
  const hour = 3600_000;
  const createStory = async (
    spec: StorySpec,
    index: number,
    extra: { status: "PUBLISHED" | "DRAFT"; publishedAt: Date | null; breakingUntil?: Date },
  ) => {
    const slug = `${spec.section}/${demoSlug(spec.headline)}`;
    const existing = await db.story.findUnique({
      where: { accountId_slug: { accountId, slug } },
      select: { id: true },
    });
    if (existing) return { id: existing.id, slug };
    const sectionImages = demoImages.get(spec.section)!;
    const at = (extra.publishedAt ?? now).getTime();
    const cards = demoCards(spec, index, sectionImages, at);
    const plainText = cardsPlainText(cards);
    const sectionIds = [sections.get(spec.section)!];
    const parent = DEMO_SECTIONS.find((s) => s.slug === spec.section)?.parent;
    if (parent) sectionIds.push(sections.get(parent)!);
    const story = await db.story.create({
      data: {
        accountId,
        headline: spec.headline,
        subheadline: spec.sub,
        slug,
        summary: spec.summary,
        status: extra.status,
        storyTemplate: index % 3 === 0 ? "video" : "text",
        cards: cards as unknown as Prisma.InputJsonValue,
        plainText,
        readTime: readTimeMinutes(plainText),
        seo: { "meta-title": spec.headline, "meta-description": spec.summary, "meta-keywords": spec.tags },
        heroImageS3Key: sectionImages.hero.key,
        heroImageMetadata: {
          width: sectionImages.hero.width,
          height: sectionImages.hero.height,
          "mime-type": "image/png",
        },
        heroImageCaption: spec.sub,
        heroImageAttribution: "Masthead demo image",
        isBreakingNews: Boolean(extra.breakingUntil),
        breakingNewsExpiresAt: extra.breakingUntil ?? null,
        publishedAt: extra.publishedAt,
        firstPublishedAt: extra.publishedAt,
        lastPublishedAt: extra.publishedAt,
        createdAt: new Date(at - 2 * hour),
        sections: { create: sectionIds.map((sectionId, position) => ({ sectionId, position })) },
        authors: { create: [{ authorId: authors[spec.author]!, position: 0 }] },
        tags: { create: spec.tags.map((slug, position) => ({ tagId: tags.get(slug)!, position })) },
        entities: { create: (spec.entities ?? []).map((key) => ({ entityId: entities.get(key)! })) },
      },
      select: { id: true },
    });
    report.created.push(`story ${slug}`);
    return { id: story.id, slug };
  };

  const published: { id: string; slug: string; section: string }[] = [];
  for (const [index, spec] of DEMO_STORIES.entries()) {
    // Newest first, one every ~14 hours: the oldest is about three weeks old.
    const publishedAt = new Date(now.getTime() - (index * 14 + 1) * hour);
    published.push({
      ...(await createStory(spec, index, { status: "PUBLISHED", publishedAt })),
      section: spec.section,
    });
  }
  const breaking = await createStory(BREAKING, DEMO_STORIES.length, {
    status: "PUBLISHED",
    publishedAt: new Date(now.getTime() - 20 * 60_000),
    breakingUntil: new Date(now.getTime() + 3 * 24 * hour),
  });
  const drafts = [];
  for (const [i, spec] of DRAFTS.entries())
    drafts.push(await createStory(spec, DEMO_STORIES.length + 1 + i, { status: "DRAFT", publishedAt: null }));
  return { published, breaking, drafts };
}

/** Collections: the home page, editors' picks and an automated one of two sections. */
async function seedCollections(
  { db, accountId, report }: Seeding,
  {
    published,
    breaking,
    sections,
  }: {
    published: { id: string; slug: string; section: string }[];
    breaking: { id: string; slug: string };
    sections: Map<string, number>;
  },
) {
  const ensureCollection = async (
    slug: string,
    data: Omit<Prisma.CollectionUncheckedCreateInput, "accountId" | "slug">,
    items: () => Prisma.CollectionItemCreateWithoutCollectionInput[],
  ) => {
    if (await db.collection.findUnique({ where: { accountId_slug: { accountId, slug } }, select: { id: true } }))
      return;
    await db.collection.create({ data: { accountId, slug, ...data, items: { create: items() } } });
    report.created.push(`collection ${slug}`);
  };
  const sectionCollections = await db.collection.findMany({
    where: { accountId, sectionOf: { slug: { in: DEMO_SECTIONS.filter((s) => !s.parent).map((s) => s.slug) } } },
    select: { id: true, sectionOf: { select: { position: true } } },
  });
  sectionCollections.sort((a, b) => (a.sectionOf?.position ?? 0) - (b.sectionOf?.position ?? 0));
  const lead = [breaking, ...published.slice(0, 7)];
  await ensureCollection(
    "home",
    { name: "Home", summary: "The front page: top stories, then every section.", template: "home" },
    () => [
      ...lead.map((story, position) => ({
        position,
        story: { connect: { id: story.id } },
        associatedMetadata: { layout: position === 0 ? "lead" : "grid" },
      })),
      ...sectionCollections.map((collection, i) => ({
        position: lead.length + i,
        childCollection: { connect: { id: collection.id } },
        associatedMetadata: { layout: "section-row" },
      })),
    ],
  );
  const picks = published.filter((_, i) => i % 7 === 3).slice(0, 5);
  await ensureCollection(
    "editors-picks",
    { name: "Editors' picks", summary: "Stories our editors think you should not miss." },
    () => picks.map((story, position) => ({ position, story: { connect: { id: story.id } } })),
  );
  await ensureCollection(
    "technology-and-business",
    {
      name: "Technology and business",
      summary: "Everything from the technology and business desks, newest first.",
      automated: true,
      rules: { "section-ids": [sections.get("technology")!, sections.get("business")!], sort: "published-at" },
    },
    () => [],
  );
}
