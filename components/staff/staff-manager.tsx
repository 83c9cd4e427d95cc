"use client";

/**
 * The Users & keys page's users: the list, adding or inviting someone, and per user: roles,
 * disable/enable, a password reset e-mail. The last active owner is kept by the server, whose
 * message is shown as is.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  DateTime,
  Dialog,
  Fieldset,
  FormEnd,
  FormField,
  Input,
  ListError,
  ListNotice,
  ListPanel,
  PanelList,
  RadioChoices,
  serverErrors,
  useConfirm,
} from "@/components/ui";
import { ADMIN_ROLES, ROLE_LABELS, type AdminRole, type TStaffMemberView } from "@/server/auth/staff.schema";

const ROLE_HINTS: Record<AdminRole, string> = {
  OWNER: "everything: users, keys, settings, webhooks",
  EDITOR: "stories and what organises them",
  MODERATOR: "comments",
  REVENUE: "plans and subscriptions",
  CONTRIBUTOR: "writes and submits their own stories; cannot publish",
};

/** Contributor cannot publish, Editor and Owner can: ticking one side unticks the other (the server refuses both). */
function withRole(roles: AdminRole[], role: AdminRole): AdminRole[] {
  const publishing: AdminRole[] = ["EDITOR", "OWNER"];
  const kept =
    role === "CONTRIBUTOR"
      ? roles.filter((r) => !publishing.includes(r))
      : publishing.includes(role)
        ? roles.filter((r) => r !== "CONTRIBUTOR")
        : roles;
  return [...kept, role];
}

function RoleChoices({
  roles,
  onChange,
  error,
  legend,
}: {
  roles: AdminRole[];
  onChange: (roles: AdminRole[]) => void;
  error?: string;
  legend: string;
}) {
  return (
    <Fieldset legend={legend} error={error}>
      <div className="grid gap-2 sm:grid-cols-2">
        {ADMIN_ROLES.map((role) => (
          <Checkbox
            key={role}
            label={
              <span>
                {ROLE_LABELS[role]} <span className="text-gray-500">({ROLE_HINTS[role]})</span>
              </span>
            }
            checked={roles.includes(role)}
            onChange={(e) => onChange(e.target.checked ? withRole(roles, role) : roles.filter((r) => r !== role))}
          />
        ))}
      </div>
    </Fieldset>
  );
}

/**
 * The actions on one user (disable, enable, a password reset e-mail): each asks first where it
 * should, clears what the others said, and says what it did through `setNotice`.
 */
function useUserActions(setNotice: (notice: string | null) => void, refresh: () => Promise<void>) {
  const trpc = useTRPC();
  const confirm = useConfirm();
  const disable = useMutation(trpc.staff.disable.mutationOptions({ onSuccess: refresh }));
  const enable = useMutation(trpc.staff.enable.mutationOptions({ onSuccess: refresh }));
  const reset = useMutation(trpc.staff.sendPasswordReset.mutationOptions());

  async function onDisable(user: TStaffMemberView) {
    setNotice(null);
    const ok = await confirm({
      title: `Disable ${user.name}?`,
      body: "They are signed out everywhere at once and can no longer sign in. What they did keeps their name. You can enable them again.",
      confirmLabel: "Disable",
    });
    if (!ok) return;
    enable.reset();
    reset.reset();
    disable.mutate({ userId: user.id }, { onSuccess: () => setNotice(`${user.name} is disabled.`) });
  }

  async function onReset(user: TStaffMemberView) {
    setNotice(null);
    const ok = await confirm({
      title: `E-mail ${user.name} a password reset link?`,
      body: `A link to choose a new password goes to ${user.email}, valid for one hour. Their password stays until they use it.`,
      confirmLabel: "Send link",
      tone: "primary",
    });
    if (!ok) return;
    disable.reset();
    enable.reset();
    reset.mutate(
      { userId: user.id },
      { onSuccess: () => setNotice(`A password reset link is on its way to ${user.email} (see Outbox).`) },
    );
  }

  function onEnable(user: TStaffMemberView) {
    enable.mutate({ userId: user.id }, { onSuccess: () => setNotice(`${user.name} may sign in again.`) });
  }

  return { onDisable, onReset, onEnable, error: disable.error ?? enable.error ?? reset.error };
}

type UserActions = ReturnType<typeof useUserActions>;

export function StaffManager({ currentUserId }: { currentUserId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.staff.list.queryOptions());
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<TStaffMemberView | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.staff.list.queryKey() });
  const actions = useUserActions(setNotice, refresh);
  /** After a form: it closes, says what it did, and the list is read again. */
  const done = (close: () => void) => (message: string) => {
    close();
    setNotice(message);
    void refresh();
  };

  return (
    <ListPanel
      title="Users"
      titleId="users-title"
      add={{
        label: "Add user",
        formTitle: "New user",
        open: adding,
        onOpen: () => setAdding(true),
        form: <AddUserForm onDone={done(() => setAdding(false))} onCancel={() => setAdding(false)} />,
      }}
      query={list}
      what="users"
      emptyText="No users."
      notices={
        <>
          {notice ? (
            <ListNotice>
              <Alert tone="success" data-testid="staff-notice">
                {notice}
              </Alert>
            </ListNotice>
          ) : null}
          <ListError error={actions.error} />
        </>
      }
      after={
        editing ? (
          <RolesDialog user={editing} onClose={() => setEditing(null)} onSaved={done(() => setEditing(null))} />
        ) : null
      }
    >
      {(users) => (
        <PanelList items={users} itemKey={(user) => user.id} labelledBy="users-title" rowTestId="staff-row" wide>
          {(user) => (
            <>
              <UserDetails user={user} you={user.id === currentUserId} />
              <UserButtons user={user} actions={actions} onRoles={() => setEditing(user)} />
            </>
          )}
        </PanelList>
      )}
    </ListPanel>
  );
}

/** A user's name, e-mail, roles, state and last sign-in. */
function UserDetails({ user, you }: { user: TStaffMemberView; you: boolean }) {
  return (
    <div className="min-w-0">
      <p className="font-medium break-words text-gray-900">
        {user.name}
        {you ? <span className="text-gray-500"> (you)</span> : null}
      </p>
      <p className="text-sm break-all text-gray-600">{user.email}</p>
      <div className="mt-1 flex flex-wrap items-center gap-1.5 text-xs">
        {user.roles.map((role) => (
          <Badge key={role} tone={role === "OWNER" ? "blue" : "gray"}>
            {ROLE_LABELS[role]}
          </Badge>
        ))}
        {user.disabledAt ? <Badge tone="red">Disabled</Badge> : null}
        {user.invitePending ? <Badge tone="amber">Invited</Badge> : null}
        <span className="text-gray-500">
          {user.lastLoginAt ? (
            <>
              Last sign-in <DateTime value={user.lastLoginAt} />
            </>
          ) : (
            "Never signed in"
          )}
        </span>
      </div>
    </div>
  );
}

function UserButtons({
  user,
  actions,
  onRoles,
}: {
  user: TStaffMemberView;
  actions: UserActions;
  onRoles: () => void;
}) {
  return (
    <div className="flex shrink-0 flex-wrap gap-2">
      <Button size="sm" onClick={onRoles} aria-label={`Change roles of ${user.name}`}>
        Roles
      </Button>
      {user.disabledAt ? (
        <Button size="sm" onClick={() => actions.onEnable(user)} aria-label={`Enable ${user.name}`}>
          Enable
        </Button>
      ) : (
        <>
          <Button size="sm" onClick={() => void actions.onReset(user)} aria-label={`Reset password of ${user.name}`}>
            Reset password
          </Button>
          <Button
            size="sm"
            variant="danger"
            onClick={() => void actions.onDisable(user)}
            aria-label={`Disable ${user.name}`}
          >
            Disable
          </Button>
        </>
      )}
    </div>
  );
}

function AddUserForm({ onDone, onCancel }: { onDone: (message: string) => void; onCancel: () => void }) {
  const trpc = useTRPC();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [roles, setRoles] = useState<AdminRole[]>([]);
  const [how, setHow] = useState<"invite" | "password">("invite");
  const [password, setPassword] = useState("");
  const create = useMutation(
    trpc.staff.create.mutationOptions({
      onSuccess: (result) =>
        onDone(
          result.invited
            ? `${result.user.name} is added; an invitation to choose a password is on its way to ${result.user.email}.`
            : `${result.user.name} is added and can sign in with the password you gave.`,
        ),
    }),
  );
  const errors = serverErrors(create.error, ["name", "email", "roles", "password"]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    create.mutate({ name, email, roles, password: how === "password" ? password : undefined });
  }

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="New user">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Name" error={errors.fields.name}>
          <Input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </FormField>
        <FormField label="E-mail" error={errors.fields.email}>
          <Input
            type="email"
            required
            maxLength={254}
            autoComplete="off"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </FormField>
      </div>
      <RoleChoices legend="Roles" roles={roles} onChange={setRoles} error={errors.fields.roles} />
      <Fieldset legend="Password">
        <RadioChoices
          name="how"
          value={how}
          options={[
            { value: "invite", label: "E-mail an invitation (they choose it)" },
            { value: "password", label: "Set one now" },
          ]}
          onChange={setHow}
        />
      </Fieldset>
      {how === "password" ? (
        <FormField
          label="Initial password"
          hint="At least 12 characters. Tell them how to change it."
          error={errors.fields.password}
        >
          <Input
            type="password"
            required
            minLength={12}
            maxLength={200}
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </FormField>
      ) : null}
      <FormEnd
        errors={errors}
        label={how === "invite" ? "Add and invite" : "Add user"}
        pending={create.isPending}
        pendingText="Adding…"
        onCancel={onCancel}
      />
    </form>
  );
}

function RolesDialog({
  user,
  onClose,
  onSaved,
}: {
  user: TStaffMemberView;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const trpc = useTRPC();
  const [roles, setRoles] = useState<AdminRole[]>(user.roles);
  const save = useMutation(
    trpc.staff.setRoles.mutationOptions({
      onSuccess: (result) =>
        onSaved(
          result.changed
            ? `${user.name}'s roles are changed; they were signed out everywhere (${result.revokedSessions} session${result.revokedSessions === 1 ? "" : "s"}).`
            : "Nothing changed.",
        ),
    }),
  );
  const errors = serverErrors(save.error, ["roles"]);
  return (
    <Dialog open onClose={onClose} title={`Roles of ${user.name}`} description="A change signs them out everywhere.">
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate({ userId: user.id, roles });
        }}
      >
        <RoleChoices legend="Roles" roles={roles} onChange={setRoles} error={errors.fields.roles} />
        <FormEnd errors={errors} label="Save roles" pending={save.isPending} pendingText="Saving…" onCancel={onClose} />
      </form>
    </Dialog>
  );
}
