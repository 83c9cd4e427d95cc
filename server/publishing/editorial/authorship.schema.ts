/**
 * The account's editorial settings (./authorship.ts, ./preview.ts), as the Users & keys page edits
 * them. zod only, so the form imports it.
 */
import { z } from "zod";

/** Fills a preview URL template: {token} (required) and {slug}, each URL-encoded. */
export function fillPreviewUrl(template: string, values: { token: string; slug: string }): string {
  return template
    .replaceAll("{token}", encodeURIComponent(values.token))
    .replaceAll("{slug}", encodeURIComponent(values.slug));
}

/**
 * The front end's preview page: an http(s) URL with {token} where the preview token goes, and
 * optionally {slug}. The reader's browser opens it, so private addresses (a front end on the
 * newsroom's own network, localhost while developing) are allowed.
 */
export const ZPreviewUrlTemplate = z
  .string()
  .trim()
  .max(500, "must be at most 500 characters")
  .refine((value) => value.includes("{token}"), "must contain {token}, where the preview token goes")
  .refine((value) => {
    try {
      const url = new URL(fillPreviewUrl(value, { token: "t", slug: "s" }));
      return (url.protocol === "https:" || url.protocol === "http:") && !url.username && !url.password;
    } catch {
      return false;
    }
  }, "must be an http(s) address, like https://news.example.com/preview?token={token}");

export const ZEditorialRules = z.strictObject({
  /** Nobody (owners included) approves, publishes or schedules a story they wrote. */
  noSelfApproval: z.boolean(),
  /** The front end's preview page (a template); null: Masthead's generic preview page. */
  previewUrl: z.string().nullable(),
});
export type TEditorialRules = z.infer<typeof ZEditorialRules>;

/** A change: only the settings given change; an empty preview URL removes it. */
export const ZEditorialRulesInput = z.strictObject({
  noSelfApproval: z.boolean().optional(),
  previewUrl: z.union([z.literal("").transform(() => null), z.null(), ZPreviewUrlTemplate]).optional(),
});
export type TEditorialRulesInput = z.input<typeof ZEditorialRulesInput>;
