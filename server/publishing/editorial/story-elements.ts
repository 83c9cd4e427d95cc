/**
 * The rules of each story element type beyond the wire schema (server/publishing/cards.schema.ts),
 * applied on save after sanitising (normalizeCards in ./stories/cards.ts): what each type must hold,
 * and the fields derived from others. Problems are added to `details` as `<field>.<key>`.
 *
 * - quote, blockquote, bigfact: `text` is required; blockquote and bigfact also carry it as
 *   `metadata.content` (the Quintype shape), next to `metadata.attribution`.
 * - composite (subtype image-gallery): one or more image elements, each with an image key.
 * - file: `file-url` is required; `file-name` defaults to the last part of the URL's path.
 * - jsembed other than tweet (./stories/cards.ts handles tweets): a known subtype, and a `url` or
 *   `embed-js`.
 */
import type { ErrorDetail } from "../../errors";
import { COMPOSITE_SUBTYPES, JSEMBED_SUBTYPES, type TStoryElement } from "../cards.schema";

const hasText = (value: unknown) => typeof value === "string" && value.replace(/<[^>]*>|&nbsp;|\s/g, "") !== "";

export function checkElement(element: TStoryElement, field: string, details: ErrorDetail[]): TStoryElement {
  switch (element.type) {
    case "quote":
    case "blockquote":
    case "bigfact": {
      const text = (element.text ?? "").trim();
      if (!hasText(text)) details.push({ field: `${field}.text`, issue: "is required" });
      if (element.type === "quote") return { ...element, text };
      return { ...element, text, metadata: { ...element.metadata, content: text } };
    }
    case "composite": {
      if (!(COMPOSITE_SUBTYPES as readonly (string | null)[]).includes(element.subtype)) {
        details.push({ field: `${field}.subtype`, issue: `must be one of ${COMPOSITE_SUBTYPES.join(", ")}` });
        return element;
      }
      const items = element["story-elements"] ?? [];
      if (items.length === 0) details.push({ field: `${field}.story-elements`, issue: "a gallery needs an image" });
      items.forEach((item, i) => {
        if (item.type !== "image")
          details.push({ field: `${field}.story-elements.${i}.type`, issue: "a gallery holds images only" });
        else if (!item["image-s3-key"])
          details.push({ field: `${field}.story-elements.${i}.image-s3-key`, issue: "is required" });
      });
      return element;
    }
    case "file": {
      const url = element["file-url"];
      if (!url) {
        details.push({ field: `${field}.file-url`, issue: "is required" });
        return element;
      }
      if (element["file-name"]?.trim()) return { ...element, "file-name": element["file-name"].trim() };
      let name = "";
      try {
        name = decodeURIComponent(new URL(url).pathname.split("/").filter(Boolean).pop() ?? "");
      } catch {
        name = "";
      }
      return { ...element, "file-name": name.replace(/[<>&"]/g, "") || "file" };
    }
    case "jsembed": {
      if (element.subtype === "tweet") return element;
      if (!(JSEMBED_SUBTYPES as readonly (string | null)[]).includes(element.subtype))
        details.push({ field: `${field}.subtype`, issue: `must be one of ${JSEMBED_SUBTYPES.join(", ")}` });
      else if (!element.url && !element["embed-js"])
        details.push({ field: `${field}.url`, issue: "give the post's link or its embed code" });
      return element;
    }
    default:
      return element;
  }
}
