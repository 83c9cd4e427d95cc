/**
 * A comment's ops as the dashboard shows them: text as text (React escapes it; whitespace kept),
 * links as links with rel="nofollow ugc noopener" and only for http(s) URLs, mentions as "@name",
 * images as a link to the image. Never HTML from the comment.
 */
import type { TCommentOp } from "@/server/engagement/comments.schema";

const isHttp = (url: string) => /^https?:\/\//i.test(url);

function ExternalLink({ href, children }: { href: string; children: string }) {
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

export function CommentBody({ ops, className }: { ops: readonly TCommentOp[]; className?: string }) {
  return (
    <div className={className ?? "text-sm break-words whitespace-pre-wrap text-gray-900"}>
      {ops.map((op, index) => {
        if (typeof op.insert === "string") {
          if ("attributes" in op && "link" in op.attributes && typeof op.attributes.link === "string") {
            return (
              <ExternalLink key={index} href={op.attributes.link}>
                {op.insert}
              </ExternalLink>
            );
          }
          return <span key={index}>{op.insert}</span>;
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
