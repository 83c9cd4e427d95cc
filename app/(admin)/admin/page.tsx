import type { Metadata } from "next";

import { ModerationWorkCard, RevenueWorkCard } from "@/components/admin/work-overview";
import { EditorOverview } from "@/components/content/stories/editor-overview";
import { Card, Code, DateTime, PageHeader, TextLink } from "@/components/ui";
import { getDashboardOverview } from "@/server/accounts/overview";
import { getModerationWork, getRevenueWork } from "@/server/accounts/work-overview";
import { staffActor } from "@/server/auth/actor";
import { requireAdmin } from "@/server/auth/next-auth";
import { ADMIN_ROLES, hasAnyRole, ROLE_LABELS } from "@/server/auth/roles";
import { getDb } from "@/server/db";

import { getArea } from "./_lib/areas";

export const metadata: Metadata = { title: "Overview" };

const area = getArea("");

export default async function OverviewPage() {
  const { user } = await requireAdmin({ from: area.href, roles: area.roles });
  const overview = await getDashboardOverview(await getDb(), { actor: staffActor(user) });
  const { account, adminUsers, activity } = overview;
  const db = await getDb();
  const now = new Date();
  const [moderation, revenue] = await Promise.all([
    hasAnyRole(user.roles, ["MODERATOR"]) ? getModerationWork(db, { accountId: account.id, now }) : null,
    hasAnyRole(user.roles, ["REVENUE"]) ? getRevenueWork(db, { accountId: account.id, now }) : null,
  ]);

  return (
    <>
      <PageHeader eyebrow="Overview" title={account.name} description={`Signed in as ${user.name}.`} />

      {/* Staff who edit content see the newsroom first (stories awaiting approval, scheduled…). */}
      {hasAnyRole(user.roles, ["EDITOR"]) ? (
        <div className="mb-8">
          <EditorOverview />
        </div>
      ) : null}

      {/* Moderators and revenue staff see their work: the queue, the subscriptions that need them. */}
      {moderation ? (
        <div className="mb-8">
          <ModerationWorkCard work={moderation} />
        </div>
      ) : null}
      {revenue ? (
        <div className="mb-8">
          <RevenueWorkCard work={revenue} />
        </div>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-3">
        <Card title="Publication">
          <dl className="mt-4 space-y-3 text-sm">
            <div className="flex justify-between gap-4">
              <dt className="text-gray-500">Name</dt>
              <dd className="text-right font-medium text-gray-900">{account.name}</dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-gray-500">Account id</dt>
              <dd className="font-mono text-gray-900">{account.id}</dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-gray-500">Slug</dt>
              <dd className="font-mono text-gray-900">{account.slug}</dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-gray-500">Domain</dt>
              <dd className="text-gray-900">{account.domain ?? "Not set"}</dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-gray-500">Created</dt>
              <dd className="text-gray-900">
                <DateTime value={account.createdAt} />
              </dd>
            </div>
          </dl>
        </Card>

        <Card title="Dashboard users">
          <p className="mt-4 text-3xl font-semibold tracking-tight text-gray-900" data-testid="active-admin-users">
            {adminUsers.active}
          </p>
          <p className="text-sm text-gray-500">
            active{adminUsers.disabled > 0 ? `, ${adminUsers.disabled} disabled` : ""}
          </p>
          <ul className="mt-4 space-y-1.5 text-sm">
            {ADMIN_ROLES.map((role) => (
              <li key={role} className="flex justify-between">
                <span className="text-gray-600">{ROLE_LABELS[role]}</span>
                <span className="font-medium text-gray-900">{adminUsers.byRole[role]}</span>
              </li>
            ))}
          </ul>
        </Card>

        <Card
          title={activity.scope === "account" ? "Recent activity" : "Your recent activity"}
          actions={
            activity.scope === "account" ? (
              <TextLink href="/admin/audit-log" className="text-sm">
                Audit log
              </TextLink>
            ) : null
          }
        >
          {activity.entries.length === 0 ? (
            <p className="mt-4 text-sm text-gray-500">Nothing recorded yet.</p>
          ) : (
            <ol className="mt-4 space-y-3">
              {activity.entries.map((entry) => (
                <li key={entry.id} className="text-sm">
                  <Code>{entry.action}</Code>
                  <p className="mt-1 text-gray-600">
                    {entry.actor?.name ?? "System"} · <DateTime value={entry.createdAt} />
                  </p>
                </li>
              ))}
            </ol>
          )}
        </Card>
      </div>
    </>
  );
}
