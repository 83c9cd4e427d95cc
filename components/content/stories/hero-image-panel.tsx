"use client";

/**
 * The story's hero image: a thumbnail of the chosen image (or an upload or library choice), its
 * caption, attribution and alt text. The image store's key is there to paste one by hand, folded away.
 */
import { imageMetadata, ImageUploadButton } from "@/components/content/image-upload";
import { Button, FormField, Input } from "@/components/ui";

import type { FormValues } from "./story-form";

type Props = {
  values: FormValues;
  setValues: (update: (values: FormValues) => FormValues) => void;
  text: (key: "heroCaption" | "heroAttribution") => {
    value: string;
    onChange: (e: { target: { value: string } }) => void;
  };
};

export function HeroImagePanel({ values, setValues, text }: Props) {
  const alt = values.heroMetadata?.alt ?? "";
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        {values.heroKey ? (
          // eslint-disable-next-line @next/next/no-img-element -- an uploaded image, served by /images
          <img
            src={`/images/${values.heroKey}`}
            alt={alt ? `Hero image: ${alt}` : "Hero image (no alt text yet)"}
            className="h-24 w-40 rounded object-cover ring-1 ring-gray-200"
            data-testid="hero-thumbnail"
          />
        ) : (
          <p className="text-sm text-gray-600" data-testid="hero-none">
            No hero image yet.
          </p>
        )}
        <ImageUploadButton
          label="Upload hero image"
          onUploaded={(image) =>
            setValues((v) => ({
              ...v,
              heroKey: image.key,
              // A library image brings the alt text kept with it; the editor can change it here.
              heroMetadata: { ...imageMetadata(image), ...(image.alt ? { alt: image.alt } : {}) },
            }))
          }
        />
        {values.heroKey ? (
          <Button size="sm" onClick={() => setValues((v) => ({ ...v, heroKey: "", heroMetadata: null }))}>
            Remove hero image
          </Button>
        ) : null}
      </div>
      <FormField
        label="Hero alt text"
        optional
        hint="What the image shows, for readers who cannot see it. Feeds fall back to the caption, then the headline."
      >
        <Input
          maxLength={1000}
          value={alt}
          disabled={!values.heroKey}
          onChange={(e) => {
            const next = e.target.value;
            setValues((v) => {
              const { alt: _old, ...rest } = v.heroMetadata ?? {};
              return { ...v, heroMetadata: next ? { ...rest, alt: next } : Object.keys(rest).length ? rest : null };
            });
          }}
        />
      </FormField>
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField label="Hero caption" optional>
          <Input maxLength={1000} {...text("heroCaption")} />
        </FormField>
        <FormField label="Hero attribution" optional>
          <Input maxLength={500} {...text("heroAttribution")} />
        </FormField>
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer text-gray-700">Image key</summary>
        <FormField label="Hero image key" hint="The image's key in the image store, to use one already uploaded.">
          <Input
            maxLength={500}
            value={values.heroKey}
            onChange={(e) => setValues((v) => ({ ...v, heroKey: e.target.value, heroMetadata: null }))}
            className="font-mono"
          />
        </FormField>
      </details>
    </div>
  );
}
