"use client";

/**
 * A custom menu of the Settings page (settings-form.tsx): its items in order, each a section, a
 * tag or a link, moved, removed and added here.
 */
import { Button, FormField, Input, Select } from "@/components/ui";
import type { TPublisherSettingsView } from "@/server/publishing/settings.schema";

type MenuItem = NonNullable<TPublisherSettingsView["settings"]["menu"]>[number];

export function MenuEditor({
  items,
  sectionOptions,
  error,
  onChange,
}: {
  items: MenuItem[];
  sectionOptions: { value: string; label: string }[];
  error?: string;
  onChange: (items: MenuItem[]) => void;
}) {
  const replace = (index: number, item: MenuItem) => onChange(items.map((it, i) => (i === index ? item : it)));
  const move = (index: number, by: number) => {
    const next = [...items];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item!);
    onChange(next);
  };
  return (
    <div className="space-y-3">
      {error ? (
        <p className="text-xs text-red-700" role="alert">
          A menu item is not right: {error}
        </p>
      ) : null}
      {items.length === 0 ? <p className="text-sm text-gray-500">No items yet.</p> : null}
      <ol className="space-y-3">
        {items.map((item, index) => (
          <li key={index} className="rounded-md border border-gray-200 p-3" data-testid="menu-item">
            <div className="grid gap-3 sm:grid-cols-[1fr_10rem_1fr]">
              <FormField label={`Item ${index + 1} title`}>
                <Input
                  required
                  maxLength={100}
                  value={item.title}
                  onChange={(e) => replace(index, { ...item, title: e.target.value })}
                />
              </FormField>
              <FormField label={`Item ${index + 1} kind`}>
                <Select
                  value={item.type}
                  options={[
                    { value: "section", label: "Section" },
                    { value: "tag", label: "Tag" },
                    { value: "link", label: "Link" },
                  ]}
                  onChange={(e) => replace(index, { title: item.title, type: e.target.value as MenuItem["type"] })}
                />
              </FormField>
              {item.type === "section" ? (
                <FormField label={`Item ${index + 1} section`}>
                  <Select
                    required
                    value={item.sectionId === undefined ? "" : String(item.sectionId)}
                    placeholder="Choose a section"
                    options={sectionOptions}
                    onChange={(e) =>
                      replace(index, { ...item, sectionId: e.target.value ? Number(e.target.value) : undefined })
                    }
                  />
                </FormField>
              ) : item.type === "tag" ? (
                <FormField label={`Item ${index + 1} tag slug`}>
                  <Input
                    required
                    maxLength={100}
                    value={item.tagSlug ?? ""}
                    onChange={(e) => replace(index, { ...item, tagSlug: e.target.value })}
                  />
                </FormField>
              ) : (
                <FormField label={`Item ${index + 1} address`}>
                  <Input
                    required
                    maxLength={2000}
                    placeholder="/about or https://…"
                    value={item.url ?? ""}
                    onChange={(e) => replace(index, { ...item, url: e.target.value })}
                  />
                </FormField>
              )}
            </div>
            <div className="mt-2 flex flex-wrap gap-2">
              <Button
                size="sm"
                disabled={index === 0}
                onClick={() => move(index, -1)}
                aria-label={`Move item ${index + 1} up`}
              >
                ↑ Up
              </Button>
              <Button
                size="sm"
                disabled={index === items.length - 1}
                onClick={() => move(index, 1)}
                aria-label={`Move item ${index + 1} down`}
              >
                ↓ Down
              </Button>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => onChange(items.filter((_, i) => i !== index))}
                aria-label={`Remove item ${index + 1}`}
              >
                Remove
              </Button>
            </div>
          </li>
        ))}
      </ol>
      <Button
        onClick={() => onChange([...items, { title: "", type: sectionOptions.length ? "section" : "link" }])}
        disabled={items.length >= 100}
      >
        Add menu item
      </Button>
    </div>
  );
}
