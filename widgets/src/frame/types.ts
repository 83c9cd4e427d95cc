/** The frame's settings and the engagement API's shapes the widgets read (docs/engagement.md). */
import { type Op } from "../ops";
import { type ParsedMessages } from "../translate";

export type Obj = Record<string, unknown>;

export type Config = {
  kind: "comments" | "feed" | "ugc" | "reactions" | "newsletter";
  accountId: number;
  pageUrl: string;
  widgetId: string;
  parentOrigin: string | null;
  /** The frame's locale (one of i18n/locales.ts), and its words in it, parsed (server/widgets/frame-catalogue.ts). */
  locale: string;
  messages: ParsedMessages;
  guestsAllowed: boolean;
  confidentialAllowed: boolean;
  topicType: string;
  topicValue: string;
  publisher: string;
  colors: { primary?: string; secondary?: string; bg?: string; font?: string };
  fontFamily: string | null;
  /** The newsletter widget's newsletters. */
  newsletters?: { slug: string; name: string; description: string | null }[];
};

export type Author = {
  id: number | string;
  name: string;
  avatar: string | null;
  slug: string;
  guest: boolean;
  /** An erased reader (docs/privacy.md "Erasure"). */
  erased?: boolean;
} | null;

export type Comment = {
  id: number;
  body: { ops: Op[] };
  created_at: string;
  edited_at: string | null;
  parent_comment_id: number | null;
  author_id: number | string | null;
  author: Author;
  reactions: Record<string, number>;
  /** The signed-in reader's own reaction ids (the API sends them with a jwt). */
  my_reactions?: string[];
  hidden: boolean;
  deleted: boolean;
  is_published: boolean;
  is_page_author: boolean;
  page_url?: string;
  headline?: string | null;
  replies?: Comment[];
  /** Asked with featured=first: featured by a moderator. */
  featured?: boolean;
  /** The reader's own comments (with a jwt): until when they may edit it; null: no limit. */
  editable_until?: string | null;
};

export type Me = { id: number | string; name: string; avatar: string | null; slug: string };

/** The reactions a reader can give, in the order the widgets show them. */
export const REACTIONS: [string, string][] = [
  ["like", "👍"],
  ["love", "❤️"],
  ["haha", "😂"],
  ["wow", "😮"],
  ["sad", "😢"],
  ["angry", "😡"],
];
