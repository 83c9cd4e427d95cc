"use client";

/** What every element editor takes, and its plain-text control for an HTML field. */
import { FormField, Input, Textarea } from "@/components/ui";
import type { TStoryElement } from "@/server/publishing/cards.schema";

import { htmlToPlain, plainToHtml } from "./story-elements";

export type EditorProps = {
  element: TStoryElement;
  position: string;
  onChange: (element: TStoryElement) => void;
  /** Replace the element with several (an image dropped into a text splits it). */
  onReplace?: (elements: TStoryElement[]) => void;
};

/** An HTML field edited as the text it shows: &, < and > are encoded on the way in. */
export function PlainField({
  label,
  value,
  onChange,
  multiline,
  optional,
  hint,
}: {
  label: string;
  value: string | undefined;
  onChange: (html: string) => void;
  multiline?: boolean;
  optional?: boolean;
  hint?: string;
}) {
  const text = htmlToPlain(value);
  return (
    <FormField label={label} optional={optional} hint={hint}>
      {multiline ? (
        <Textarea rows={3} value={text} onChange={(event) => onChange(plainToHtml(event.target.value))} />
      ) : (
        <Input value={text} onChange={(event) => onChange(plainToHtml(event.target.value))} />
      )}
    </FormField>
  );
}
