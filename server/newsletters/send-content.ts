/**
 * What a send mails, read from the database and compiled once (./render-mail.ts): a story's two
 * variants (full, and cut at the paywall) or a digest, and, per reader, which variant the reader
 * gets.
 *
 * A reader's access to a story in a mail follows the paywall rule (../subscriptions/access-rule.ts)
 * for a known, signed-in member without a meter (a mail counts no metered read): a public story,
 * and a "login" story (the reader is a member), are sent whole; a "subscription" story whole to a
 * reader whose own or group subscription grants it now (SUBSCRIBER, or ASSET for pay per asset),
 * cut at the paywall to everyone else. The reader's subscriptions are read as the access check
 * reads them (../subscriptions/access-load.ts `loadReaderState`: a batch's readers in one statement).
 */
import "server-only";

import type { Db } from "../db/client";
import { AppError } from "../errors";
import { imageUrl } from "../publishing/feeds/content";
import { getPublisher } from "../publishing/publisher";
import { storyUrl } from "../publishing/story-view";
import { loadReaderState } from "../subscriptions/access-load";
import { applyAccessRule, storyAccessKind, type StoryAccess } from "../subscriptions/access-rule";
import { digestStories } from "./digest-stories";
import { compileDigestMail, compileStoryMail, parseDesign, type MailFrame, type MailTemplate } from "./render-mail";

export type SendContent = {
  /** The template a reader gets. */
  templateFor(memberId: number): MailTemplate;
  /** Read what `templateFor` needs for these readers (one statement for a batch). */
  prepare(memberIds: readonly number[]): Promise<void>;
};

type NewsletterForContent = { name: string; design: unknown; accountId: number };

async function frameOf(db: Db, newsletter: NewsletterForContent, appUrl: string) {
  const publisher = await getPublisher(db, newsletter.accountId, { appUrl });
  const frame: MailFrame = {
    newsletterName: newsletter.name,
    publisherName: publisher.name,
    design: parseDesign(newsletter.design),
  };
  return { publisher, frame };
}

/** A story's two variants, full and cut, compiled for the newsletter. */
export async function storyTemplates(
  db: Db,
  args: { newsletter: NewsletterForContent; storyId: string; appUrl: string },
): Promise<{ full: MailTemplate; cut: MailTemplate; access: StoryAccess; headline: string }> {
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
  };
  const common = {
    frame: { ...frame, preheader: story.summary ?? undefined },
    story: mailStory,
    subscribeUrl: url,
    imageUrl: toImage,
  };
  return {
    full: compileStoryMail({ ...common, variant: "full" }),
    cut: compileStoryMail({ ...common, variant: "cut" }),
    access: {
      access: story.access,
      accessLevelValue: story.accessLevelValue,
      collectionIds: story.collectionItems.map((c) => c.collectionId),
    },
    headline: story.headline,
  };
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

/** A story send's content: the variant per reader, by the reader's subscriptions. */
export async function storyContent(
  db: Db,
  args: { newsletter: NewsletterForContent; storyId: string; appUrl: string; now: Date },
): Promise<SendContent> {
  const t = await storyTemplates(db, args);
  if (storyAccessKind(t.access.access) !== "subscription") {
    return { templateFor: () => t.full, prepare: async () => {} };
  }
  const whole = new Map<number, boolean>();
  return {
    templateFor: (memberId) => (whole.get(memberId) ? t.full : t.cut),
    async prepare(memberIds) {
      whole.clear();
      const states = await Promise.all(memberIds.map((id) => loadReaderState(db, args.newsletter.accountId, id, null)));
      memberIds.forEach((id, i) =>
        whole.set(id, readsWhole(args.storyId, t.access, states[i]!.subscriptions, args.now)),
      );
    },
  };
}

/** A digest send's content: one template for every reader. */
async function digestContent(
  db: Db,
  args: { newsletter: NewsletterForContent; collectionId: number; title: string; appUrl: string },
): Promise<SendContent> {
  const { publisher, frame } = await frameOf(db, args.newsletter, args.appUrl);
  const stories = await digestStories(db, { accountId: args.newsletter.accountId, collectionId: args.collectionId });
  const template = compileDigestMail({
    frame,
    title: args.title,
    stories: stories.map((s) => ({
      headline: s.headline,
      summary: s.summary,
      url: storyUrl(publisher.siteUrl, s.slug),
      image: s.heroImageS3Key
        ? { url: imageUrl(publisher.cdnImage, s.heroImageS3Key, args.appUrl), metadata: s.heroImageMetadata }
        : null,
    })),
  });
  return { templateFor: () => template, prepare: async () => {} };
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
