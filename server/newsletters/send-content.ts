/**
 * What a send mails, read from the database and compiled once (./render-mail.ts): a story's two
 * variants (full, and cut at the paywall) or a digest, and, per reader, which variant the reader
 * gets.
 *
 * A reader's access to a story in a mail follows the paywall rule (../subscriptions/access/access-rule.ts)
 * for a known, signed-in member without a meter (a mail counts no metered read): a public story,
 * and a "login" story (the reader is a member), are sent whole; a "subscription" story whole to a
 * reader whose own or group subscription grants it now (SUBSCRIBER, or ASSET for pay per asset),
 * cut at the paywall to everyone else. The reader's subscriptions are read as the access check
 * reads them (../subscriptions/access/access-load.ts `loadReaderState`: a batch's readers in one statement).
 *
 * Each reader gets the chrome in their own locale (their saved choice, else the account's default:
 * ../mail/reader-mail.ts `memberLocales`, a batch's readers in one statement); a send compiles a
 * template per variant and locale its readers need, once, with the account's overrides.
 */
import "server-only";

import type { Locale } from "@/i18n/locales";

import type { Db } from "../db/client";
import { AppError } from "../errors";
import { accountLocales } from "../i18n/locale-settings";
import { translatorFor } from "../i18n/overrides";
import { memberLocales } from "../mail/reader-mail";
import { imageUrl } from "../publishing/feeds/content";
import { paywallPointOf } from "../publishing/paywall-point";
import { getPublisher } from "../publishing/publisher";
import { storyUrl } from "../publishing/story-view";
import { loadReaderState } from "../subscriptions/access/access-load";
import { applyAccessRule, storyAccessKind, type StoryAccess } from "../subscriptions/access/access-rule";
import { digestStories } from "./digest-stories";
import {
  compileDigestMail,
  compileStoryMail,
  parseDesign,
  type MailFrame,
  type MailLanguage,
  type MailTemplate,
} from "./render-mail";

export type SendContent = {
  /** The template a reader gets. */
  templateFor(memberId: number): MailTemplate;
  /** Read what `templateFor` needs for these readers (one statement for a batch). */
  prepare(memberIds: readonly number[]): Promise<void>;
};

type NewsletterForContent = { name: string; design: unknown; accountId: number };

/** The frame without its language: the newsletter's design, names and the newsroom's locale. */
type BareFrame = Omit<MailFrame, "language">;

async function frameOf(db: Db, newsletter: NewsletterForContent, appUrl: string) {
  const [publisher, locales] = await Promise.all([
    getPublisher(db, newsletter.accountId, { appUrl }),
    accountLocales(db, newsletter.accountId),
  ]);
  const frame: BareFrame = {
    contentLocale: locales.defaultLocale,
    newsletterName: newsletter.name,
    publisherName: publisher.name,
    design: parseDesign(newsletter.design),
  };
  return { publisher, frame };
}

/** The reader's language for the chrome: the catalogue in `locale` with the account's overrides. */
async function languageOf(db: Db, accountId: number, locale: Locale): Promise<MailLanguage> {
  return { locale, t: await translatorFor(db, accountId, "mail", locale) };
}

/** Templates compiled once per locale, on demand (`need` before `get`). */
class PerLocale<T> {
  private readonly compiled = new Map<Locale, T>();
  constructor(
    private readonly db: Db,
    private readonly accountId: number,
    private readonly compile: (language: MailLanguage) => T,
  ) {}
  async need(locales: Iterable<Locale>): Promise<void> {
    for (const locale of new Set(locales)) {
      if (!this.compiled.has(locale))
        this.compiled.set(locale, this.compile(await languageOf(this.db, this.accountId, locale)));
    }
  }
  get(locale: Locale): T {
    const found = this.compiled.get(locale);
    if (!found) throw new Error(`no template compiled for ${locale}`);
    return found;
  }
}

type StoryVariants = { full: MailTemplate; cut: MailTemplate };

/** A story read once: its access, headline, and how to compile its two variants in a reader's language. */
async function storyMaterial(
  db: Db,
  args: { newsletter: NewsletterForContent; storyId: string; appUrl: string },
): Promise<{
  compile: (language: MailLanguage) => StoryVariants;
  access: StoryAccess;
  headline: string;
  contentLocale: Locale;
}> {
  const story = await db.story.findFirst({
    where: { id: args.storyId, accountId: args.newsletter.accountId },
    select: {
      headline: true,
      subheadline: true,
      summary: true,
      slug: true,
      cards: true,
      access: true,
      accessLevelValue: true,
      paywallAt: true,
      heroImageS3Key: true,
      heroImageMetadata: true,
      heroImageCaption: true,
      collectionItems: { select: { collectionId: true } },
    },
  });
  if (!story) throw new AppError("NOT_FOUND", "Story not found.");
  const { publisher, frame } = await frameOf(db, args.newsletter, args.appUrl);
  const toImage = (key: string) => imageUrl(publisher.cdnImage, key, args.appUrl);
  const url = storyUrl(publisher.siteUrl, story.slug);
  const mailStory = {
    headline: story.headline,
    subheadline: story.subheadline,
    summary: story.summary,
    url,
    heroImage: story.heroImageS3Key
      ? { url: toImage(story.heroImageS3Key), metadata: story.heroImageMetadata, caption: story.heroImageCaption }
      : null,
    cards: story.cards,
    // Where a reader without access stops reading, as on every channel.
    paywallPoint: paywallPointOf(story, publisher.paywallDefaultElements),
  };
  const compile = (language: MailLanguage): StoryVariants => {
    const common = {
      frame: { ...frame, language, preheader: story.summary ?? undefined },
      story: mailStory,
      subscribeUrl: url,
      imageUrl: toImage,
    };
    return {
      full: compileStoryMail({ ...common, variant: "full" }),
      cut: compileStoryMail({ ...common, variant: "cut" }),
    };
  };
  return {
    compile,
    access: {
      access: story.access,
      accessLevelValue: story.accessLevelValue,
      collectionIds: story.collectionItems.map((c) => c.collectionId),
    },
    headline: story.headline,
    contentLocale: frame.contentLocale,
  };
}

/**
 * A story's two variants, full and cut, compiled for the newsletter in the account's default
 * locale (what staff preview and test sends show).
 */
export async function storyTemplates(
  db: Db,
  args: { newsletter: NewsletterForContent; storyId: string; appUrl: string },
): Promise<StoryVariants & { access: StoryAccess; headline: string }> {
  const material = await storyMaterial(db, args);
  const language = await languageOf(db, args.newsletter.accountId, material.contentLocale);
  return { ...material.compile(language), access: material.access, headline: material.headline };
}

/** Whether a member may read the story whole in a mail (see the file's comment). */
function readsWhole(
  storyId: string,
  access: StoryAccess,
  subscriptions: Parameters<typeof applyAccessRule>[0]["subscriptions"],
  now: Date,
): boolean {
  if (storyAccessKind(access.access) !== "subscription") return true;
  const decision = applyAccessRule({
    storyId: storyId.toLowerCase(),
    story: access,
    subscriptions,
    meter: { rules: null, readerKey: null, loggedIn: true, views: 0, counted: false },
    disableMeter: true,
    now,
  });
  return decision.granted;
}

/** A story send's content: the variant per reader, by the reader's subscriptions, in the reader's locale. */
export async function storyContent(
  db: Db,
  args: { newsletter: NewsletterForContent; storyId: string; appUrl: string; now: Date },
): Promise<SendContent> {
  const { accountId } = args.newsletter;
  const material = await storyMaterial(db, args);
  const templates = new PerLocale(db, accountId, material.compile);
  const paywalled = storyAccessKind(material.access.access) === "subscription";
  const whole = new Map<number, boolean>();
  const locales = new Map<number, Locale>();
  return {
    templateFor(memberId) {
      const variants = templates.get(locales.get(memberId) ?? material.contentLocale);
      return !paywalled || whole.get(memberId) ? variants.full : variants.cut;
    },
    async prepare(memberIds) {
      whole.clear();
      locales.clear();
      for (const [id, locale] of await memberLocales(db, accountId, memberIds)) locales.set(id, locale);
      await templates.need([material.contentLocale, ...locales.values()]);
      if (!paywalled) return;
      const states = await Promise.all(memberIds.map((id) => loadReaderState(db, accountId, id, null)));
      memberIds.forEach((id, i) =>
        whole.set(id, readsWhole(args.storyId, material.access, states[i]!.subscriptions, args.now)),
      );
    },
  };
}

/** A digest send's content: one template per reader locale. */
async function digestContent(
  db: Db,
  args: { newsletter: NewsletterForContent; collectionId: number; title: string; appUrl: string },
): Promise<SendContent> {
  const { accountId } = args.newsletter;
  const { publisher, frame } = await frameOf(db, args.newsletter, args.appUrl);
  const stories = await digestStories(db, { accountId, collectionId: args.collectionId });
  const items = stories.map((s) => ({
    headline: s.headline,
    summary: s.summary,
    url: storyUrl(publisher.siteUrl, s.slug),
    image: s.heroImageS3Key
      ? { url: imageUrl(publisher.cdnImage, s.heroImageS3Key, args.appUrl), metadata: s.heroImageMetadata }
      : null,
  }));
  const templates = new PerLocale(db, accountId, (language) =>
    compileDigestMail({ frame: { ...frame, language }, title: args.title, stories: items }),
  );
  const locales = new Map<number, Locale>();
  return {
    templateFor: (memberId) => templates.get(locales.get(memberId) ?? frame.contentLocale),
    async prepare(memberIds) {
      locales.clear();
      for (const [id, locale] of await memberLocales(db, accountId, memberIds)) locales.set(id, locale);
      await templates.need([frame.contentLocale, ...locales.values()]);
    },
  };
}

/** The content of a send, by its kind. */
export async function sendContent(
  db: Db,
  args: {
    send: { kind: string; storyId: string | null; collectionId: number | null; subject: string };
    newsletter: NewsletterForContent;
    appUrl: string;
    now: Date;
  },
): Promise<SendContent> {
  const { send } = args;
  if (send.kind === "story" && send.storyId)
    return storyContent(db, { newsletter: args.newsletter, storyId: send.storyId, appUrl: args.appUrl, now: args.now });
  if (send.kind === "digest" && send.collectionId !== null)
    return digestContent(db, {
      newsletter: args.newsletter,
      collectionId: send.collectionId,
      title: send.subject,
      appUrl: args.appUrl,
    });
  throw new AppError("INTERNAL", `Newsletter send of kind ${send.kind} has nothing to send.`);
}
