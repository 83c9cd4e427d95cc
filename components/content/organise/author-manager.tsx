"use client";

/** Authors: search, add, edit (bio, avatar by URL or upload, Twitter handle), delete. */
import { ImageField } from "@/components/content/image-upload";
import { crud, defineManager, searchInput } from "@/components/manager/config";
import { ResourceManager } from "@/components/manager/resource-manager";
import { ZCreateAuthorInput, ZUpdateAuthorInput } from "@/server/publishing/editorial/organise.schema";
import { firstGrapheme } from "@/server/text/graphemes";

import { NameCell, slugColumn, slugField, storiesColumn } from "./fields";

type AuthorValues = {
  name: string;
  slug: string;
  email: string;
  twitterHandle: string;
  avatarUrl: string;
  avatarS3Key: string;
  bio: string;
};

const authors = defineManager({
  procedures: (trpc) => crud(trpc.organise.authors),
  listInput: searchInput,
  rows: (data) => ({ rows: data.authors, total: data.total }),
}).with<AuthorValues>({
  noun: { one: "author", many: "authors" },
  rowId: (author) => author.id,
  rowLabel: (author) => author.name,
  columns: [
    {
      header: "Name",
      cell: (author) => (
        <span className="flex items-center gap-3">
          <Avatar name={author.name} src={author.avatarS3Key ? `/images/${author.avatarS3Key}` : author.avatarUrl} />
          <NameCell
            name={author.name}
            detail={[author.twitterHandle && `@${author.twitterHandle}`, author.bio].filter(Boolean).join(" · ")}
          />
        </span>
      ),
    },
    slugColumn(),
    storiesColumn,
  ],
  fields: [
    { name: "name", kind: "text", label: "Name", required: true, maxLength: 200 },
    slugField(),
    { name: "email", kind: "text", type: "email", label: "E-mail", hint: "Not shown to readers.", maxLength: 320 },
    { name: "twitterHandle", kind: "text", label: "Twitter handle", placeholder: "@handle" },
    { name: "avatarUrl", kind: "text", type: "url", label: "Avatar URL", hint: "Or upload an image.", maxLength: 1000 },
    {
      name: "avatarS3Key",
      kind: "custom",
      label: "Avatar image",
      render: ({ value, onChange }) => <ImageField value={value} onChange={onChange} />,
    },
    { name: "bio", kind: "textarea", label: "Bio", maxLength: 5000, wide: true },
  ],
  emptyValues: () => ({
    name: "",
    slug: "",
    email: "",
    twitterHandle: "",
    avatarUrl: "",
    avatarS3Key: "",
    bio: "",
  }),
  create: {
    schema: ZCreateAuthorInput,
    toInput: (values) => ({ ...values, slug: values.slug || undefined }),
  },
  update: {
    schema: ZUpdateAuthorInput,
    toValues: (author) => ({
      name: author.name,
      slug: author.slug,
      email: author.email ?? "",
      twitterHandle: author.twitterHandle ?? "",
      avatarUrl: author.avatarUrl ?? "",
      avatarS3Key: author.avatarS3Key ?? "",
      bio: author.bio ?? "",
    }),
    toInput: (values, author) => ({ id: author.id, ...values, slug: values.slug || undefined }),
  },
  remove: {
    toInput: (author) => ({ id: author.id }),
    confirm: (author) => ({
      title: `Delete the author "${author.name}"?`,
      body: author.storyCount
        ? `They have ${author.storyCount} stor${author.storyCount === 1 ? "y" : "ies"}: an author with stories cannot be deleted.`
        : undefined,
    }),
  },
});

function Avatar({ name, src }: { name: string; src: string | null }) {
  return src ? (
    // eslint-disable-next-line @next/next/no-img-element -- uploaded files and external avatars, not build-time assets
    <img src={src} alt="" className="h-9 w-9 shrink-0 rounded-full object-cover" />
  ) : (
    <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-gray-100 text-sm font-semibold text-gray-600">
      {firstGrapheme(name)}
    </span>
  );
}

export function AuthorManager() {
  return <ResourceManager config={authors} />;
}
