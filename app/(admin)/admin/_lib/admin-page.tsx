/**
 * The frame of a dashboard page: the role check of its area (requireAdmin, with the path to come
 * back to after signing in), then the page header, then the page. A page with an id in its path
 * passes `valid`: an id of the wrong shape is a 404, but only after the check, so signed-out
 * visitors learn nothing about which paths exist.
 */
import { notFound } from "next/navigation";
import type { ComponentProps, ReactNode } from "react";

import { ContentTabs } from "@/components/content/content-tabs";
import { EngagementTabs } from "@/components/engagement/engagement-tabs";
import { PageHeader, TextLink } from "@/components/ui";
import { getAdminSession, requireAdmin } from "@/server/auth/next-auth";
import { hasAnyRole } from "@/server/auth/roles";
import { parseWholeNumber, PG_INT_MAX } from "@/server/params.schema";

import { getArea, sectionRoles, type AreaSlug } from "./areas";

type HeaderProps = Omit<ComponentProps<typeof PageHeader>, "actions">;

export async function AdminPage({
  area,
  section,
  path,
  valid = true,
  back,
  actions,
  children,
  ...header
}: HeaderProps & {
  area: AreaSlug;
  /** The area's section the page belongs to, when its roles differ from the area's (stories). */
  section?: string;
  /** The page's path; the area's when not given. */
  path?: string;
  valid?: boolean;
  /** A link back to the list the page belongs to ("All stories"). */
  back?: { href: string; label: string };
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { href } = getArea(area);
  const roles = section ? sectionRoles(area, section) : getArea(area).roles;
  await requireAdmin({ from: path ?? href, roles });
  if (!valid) notFound();
  return (
    <>
      <PageHeader
        {...header}
        actions={
          back || actions ? (
            <>
              {actions}
              {back ? (
                <TextLink href={back.href} className="text-sm">
                  {back.label}
                </TextLink>
              ) : null}
            </>
          ) : undefined
        }
      />
      {children}
    </>
  );
}

/** A page of the content area: its tabs (those the user may open) under the header. */
export async function ContentPage({
  section,
  children,
  ...props
}: Omit<ComponentProps<typeof AdminPage>, "area" | "eyebrow"> & {
  section: ComponentProps<typeof ContentTabs>["current"];
}) {
  const roles = (await getAdminSession())?.user.roles ?? [];
  return (
    <AdminPage area="content" section={section} path={`/admin/content/${section}`} eyebrow="Content" {...props}>
      <ContentTabs current={section} allowed={(key) => hasAnyRole(roles, sectionRoles("content", key))} />
      {children}
    </AdminPage>
  );
}

/** A page of the engagement area: its tabs under the header. */
export function EngagementPage({
  section,
  children,
  ...props
}: Omit<ComponentProps<typeof AdminPage>, "area" | "eyebrow" | "path"> & {
  section: ComponentProps<typeof EngagementTabs>["current"];
}) {
  return (
    <AdminPage area="engagement" path={`/admin/engagement/${section}`} eyebrow="Engagement" {...props}>
      <EngagementTabs current={section} />
      {children}
    </AdminPage>
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path segment can be a UUID id (stories, webhooks). */
export const isUuid = (value: string) => UUID.test(value);

/** Whether a path segment can be a serial id (PostgreSQL's integer). */
/** A database id in a page's path, by the one number rule of the API (server/params.schema.ts). */
export const isSerialId = (value: string) => {
  const id = parseWholeNumber(value);
  return id !== null && id >= 1 && id <= PG_INT_MAX;
};
