"use client";

/**
 * The story's SEO fields with character counts, and a live preview of the search result they make:
 * the title (meta title, else the headline) cut at about 60 characters, the URL from the site's
 * address and the slug, the description (meta description, else the summary or the text) cut at
 * about 160; and the card a share on Facebook or X shows (./story-aids.ts socialCard).
 */
import { FormField, Input, Textarea } from "@/components/ui";

import { socialCard } from "./story-aids";
import { searchResult, SEO_DESCRIPTION_MAX, SEO_TITLE_MAX, type FormValues } from "./story-form";

function Count({ length, max }: { length: number; max: number }) {
  return (
    <span className={length > max ? "text-amber-800" : "text-gray-500"}>
      {length}/{max} characters{length > max ? ": search engines cut the rest" : ""}
    </span>
  );
}

export function SeoPanel({
  values,
  siteUrl,
  onChange,
}: {
  values: FormValues;
  siteUrl: string | null;
  onChange: (key: "metaTitle" | "metaDescription" | "metaKeywords", value: string) => void;
}) {
  const result = searchResult(values, siteUrl);
  const card = socialCard(values, siteUrl);
  return (
    <div className="space-y-4">
      <FormField label="Meta title" optional hint={<Count length={values.metaTitle.length} max={SEO_TITLE_MAX} />}>
        <Input maxLength={200} value={values.metaTitle} onChange={(e) => onChange("metaTitle", e.target.value)} />
      </FormField>
      <FormField
        label="Meta description"
        optional
        hint={<Count length={values.metaDescription.length} max={SEO_DESCRIPTION_MAX} />}
      >
        <Textarea
          rows={2}
          maxLength={500}
          value={values.metaDescription}
          onChange={(e) => onChange("metaDescription", e.target.value)}
        />
      </FormField>
      <FormField label="Meta keywords" hint="Separated by commas.">
        <Input value={values.metaKeywords} onChange={(e) => onChange("metaKeywords", e.target.value)} />
      </FormField>
      <figure className="rounded border border-gray-200 bg-white p-3" data-testid="seo-preview">
        <figcaption className="mb-1 text-xs font-medium text-gray-600">Search result preview</figcaption>
        <p className="truncate text-xs text-gray-700" data-testid="seo-preview-url">
          {result.url}
        </p>
        <p className="text-lg leading-snug text-blue-800" data-testid="seo-preview-title">
          {result.title}
        </p>
        <p className="text-sm text-gray-700" data-testid="seo-preview-description">
          {result.description || <em className="text-gray-500">No description yet.</em>}
        </p>
        {!siteUrl ? (
          <p className="mt-1 text-xs text-gray-500">The address is an example until an owner sets the site URL.</p>
        ) : null}
      </figure>
      <figure className="max-w-md" data-testid="social-preview">
        <figcaption className="mb-1 text-xs font-medium text-gray-600">Social card preview (Facebook, X)</figcaption>
        <div className="overflow-hidden rounded-lg border border-gray-300 bg-white">
          {card.imageKey ? (
            // eslint-disable-next-line @next/next/no-img-element -- an uploaded image, served by /images
            <img
              src={`/images/${card.imageKey}`}
              alt={card.imageAlt}
              className="aspect-[1.91/1] w-full bg-gray-100 object-cover"
              data-testid="social-preview-image"
            />
          ) : (
            <div
              className="flex aspect-[1.91/1] w-full items-center justify-center bg-gray-100 px-4 text-center text-xs text-gray-700"
              data-testid="social-preview-no-image"
            >
              No hero image: the card shows no picture.
            </div>
          )}
          <div className="border-t border-gray-200 bg-gray-50 px-3 py-2">
            <p className="truncate text-xs text-gray-700" data-testid="social-preview-host">
              {card.host}
            </p>
            <p className="leading-snug font-semibold text-gray-900" data-testid="social-preview-title">
              {card.title}
            </p>
            <p className="line-clamp-2 text-sm text-gray-700" data-testid="social-preview-description">
              {card.description || <em className="text-gray-600">No description yet.</em>}
            </p>
          </div>
        </div>
      </figure>
    </div>
  );
}
