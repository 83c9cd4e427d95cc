/**
 * A comment's stored body (`{ops}`: strings, mentions, images) as plain text: strings as written,
 * a mention as @name, an image as `image` writes its URL (left out without it).
 */
export function commentOpsText(body: unknown, image?: (url: string) => string): string {
  const ops = (body as { ops?: unknown[] } | null)?.ops;
  if (!Array.isArray(ops)) return "";
  let text = "";
  for (const op of ops) {
    if (!op || typeof op !== "object") continue;
    const { insert, attributes } = op as { insert?: unknown; attributes?: { mention?: { name?: unknown } } };
    if (typeof insert === "string") text += insert;
    else if (attributes?.mention && typeof attributes.mention.name === "string") text += `@${attributes.mention.name}`;
    else if (image && insert && typeof insert === "object" && typeof (insert as { image?: unknown }).image === "string")
      text += image((insert as { image: string }).image);
  }
  return text;
}
