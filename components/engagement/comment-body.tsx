/**
 * A comment's ops as the dashboard shows them: text as text (React escapes it; whitespace kept),
 * links as links with rel="nofollow ugc noopener" and only for http(s) URLs, mentions as "@name",
 * images as a link to the image. Never HTML from the comment.
 *
 * `highlights` (the moderation queue's) mark words in <mark>, as offsets into the text inserts
 * joined in order (mentions and images are not text), each titled with why it is marked.
 */
import type { ReactNode } from "react";

import type { TCommentOp } from "@/server/engagement/comments.schema";
import type { TQueueItem } from "@/server/engagement/moderation/queue/queue.schema";

type Highlight = TQueueItem["highlights"][number];

const MARK_CLASS: Record<Highlight["kind"], string> = {
  banned: "rounded-sm bg-red-100 px-0.5 text-red-900 ring-1 ring-red-300",
  toxic: "rounded-sm bg-amber-100 px-0.5 text-gray-900 ring-1 ring-amber-300",
  spam: "rounded-sm bg-violet-100 px-0.5 text-gray-900 ring-1 ring-violet-300",
  link: "rounded-sm bg-sky-100 px-0.5 text-gray-900 ring-1 ring-sky-300",
};

/** `text` (which starts at `offset` of the comment's text) with the highlights inside it marked. */
function marked(text: string, offset: number, highlights: readonly Highlight[]): ReactNode {
  const end = offset + text.length;
  const inside = highlights.filter((h) => h.start < end && h.end > offset);
  if (inside.length === 0) return text;
  const parts: ReactNode[] = [];
  let at = offset;
  for (const h of inside) {
    const from = Math.max(h.start, at);
    const to = Math.min(h.end, end);
    if (from > at) parts.push(text.slice(at - offset, from - offset));
    if (to > from) {
      parts.push(
        <mark key={from} title={h.label} data-highlight={h.kind} className={MARK_CLASS[h.kind]}>
          {text.slice(from - offset, to - offset)}
        </mark>,
      );
    }
    at = Math.max(at, to);
  }
  if (at < end) parts.push(text.slice(at - offset));
  return parts;
}

const isHttp = (url: string) => /^https?:\/\//i.test(url);

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  if (!isHttp(href)) return <>{children}</>;
  return (
    <a
      href={href}
      rel="nofollow ugc noopener noreferrer"
      target="_blank"
      className="hover:text-brand-800 break-all text-brand-700 underline"
    >
      {children}
    </a>
  );
}

export function CommentBody({
  ops,
  className,
  highlights = [],
}: {
  ops: readonly TCommentOp[];
  className?: string;
  highlights?: readonly Highlight[];
}) {
  const sorted = [...highlights].sort((a, b) => a.start - b.start);
  const starts: number[] = [];
  let length = 0;
  for (const op of ops) {
    starts.push(length);
    if (typeof op.insert === "string") length += op.insert.length;
  }
  return (
    <div className={className ?? "text-sm break-words whitespace-pre-wrap text-gray-900"}>
      {ops.map((op, index) => {
        if (typeof op.insert === "string") {
          const text = marked(op.insert, starts[index] ?? 0, sorted);
          if ("attributes" in op && "link" in op.attributes && typeof op.attributes.link === "string") {
            return (
              <ExternalLink key={index} href={op.attributes.link}>
                {text}
              </ExternalLink>
            );
          }
          return <span key={index}>{text}</span>;
        }
        if ("image" in op.insert) {
          return (
            <span key={index}>
              [<ExternalLink href={op.insert.image}>image</ExternalLink>]
            </span>
          );
        }
        if ("attributes" in op && "mention" in op.attributes) {
          return (
            <span key={index} className="font-medium">
              @{op.attributes.mention.name}
            </span>
          );
        }
        return null;
      })}
    </div>
  );
}
