/**
 * The sources `npm run import -- --from <name>` knows. A new source (WXR posts, Ghost JSON,
 * readers and subscriptions CSVs) is one entry: an ImportSource (types.ts) of its own module.
 * Descriptions and `commandLineOnly` are shown to owners on the dashboard's Import page: plain
 * words, no commands or flags (those are in docs/migration.md, for operators).
 */
import "server-only";

import { ownValue } from "@/server/own-keys";

import { CORAL_READER } from "./comments/coral";
import { DISQUS_READER } from "./comments/disqus";
import { REMARK42_READER } from "./comments/remark42";
import { commentSource } from "./comments/source";
import { WXR_READER } from "./comments/wxr";
import { contentApiOpener } from "./content/content-api";
import { importAllowsPrivateUrls } from "./content/content-api-fetch";
import { ghostOpener } from "./content/ghost";
import { contentSource } from "./content/source";
import { openWxr } from "./content/wxr";
import { ghostMembersSource } from "./readers/ghost-members";
import { newsletterCsvSource } from "./readers/newsletter-csv";
import { subscriptionsSource } from "./readers/subscriptions";
import type { ImportSource } from "./types";

/**
 * The content API source; `collections`: the slugs the operator names (--collections) besides
 * those the site shows (content-api-collections.ts).
 */
export function contentApiSource(options: { collections?: readonly string[] } = {}): ImportSource {
  return {
    ...contentSource(
      "content-api",
      "the published stories and the collections of another site serving Masthead's content API, at its base URL",
      (file) =>
        contentApiOpener({ allowPrivate: importAllowsPrivateUrls(), collections: options.collections ?? [] })(file),
      { collections: true },
    ),
    commandLineOnly:
      "it reads a site rather than a file: send the old site's address to whoever runs your Masthead server, who imports it for you",
  };
}

/**
 * The Ghost source; `ghostUrl`: the old site's address (--ghost-url), which `__GHOST_URL__` in the
 * export stands for; without it, the account's site URL (content/ghost-urls.ts).
 */
export function ghostSource(options: { ghostUrl?: string } = {}): ImportSource {
  return contentSource("ghost", "the posts and pages of a Ghost export (JSON)", ghostOpener(options));
}

export const IMPORT_SOURCES: Record<string, ImportSource> = {
  disqus: commentSource("disqus", "comments of a Disqus export (XML)", DISQUS_READER),
  "wxr-comments": commentSource(
    "wxr-comments",
    "the comments of a WordPress export (WXR 1.2); its posts and pages are imported as WordPress posts and pages",
    WXR_READER,
  ),
  remark42: commentSource("remark42", "comments of a Remark42 backup (JSON lines, gzipped or not)", REMARK42_READER),
  coral: {
    ...commentSource(
      "coral",
      "comments of Coral, from its MongoDB: a folder of stories.json, users.json and comments.json",
      CORAL_READER,
    ),
    commandLineOnly:
      "its data is a folder of three files (stories, users and comments), not one file: send the folder to whoever runs your Masthead server, who imports it for you",
  },
  wxr: contentSource("wxr", "the posts and pages of a WordPress export (WXR 1.2)", openWxr, {
    commentsSource: "wxr-comments",
  }),
  ghost: ghostSource(),
  "content-api": contentApiSource(),
  "ghost-members": ghostMembersSource,
  subscriptions: subscriptionsSource(),
  "newsletter-csv": newsletterCsvSource(),
};

/** The source named `name` (text from the command line or a form), or undefined. */
export function importSourceNamed(name: string): ImportSource | undefined {
  return ownValue(IMPORT_SOURCES, name);
}

export function importSourceNames(): string[] {
  return Object.keys(IMPORT_SOURCES);
}
