/**
 * A panel that lists one kind of thing. With `add`, a button in the title row opens the form to
 * add one in a strip under the title (the button hides while it is open). Then `notices` (what an
 * action said), the list query's state (loading, failed, empty: `emptyText`) and, once it has
 * items, the rows `children` renders; `after` last (a dialog for a row, say).
 */
import type { ReactNode } from "react";

import { Button } from "./button";
import { LoadState } from "./load-state";
import { Panel, PanelSection } from "./panel";

export function ListPanel<T>({
  title,
  titleId,
  add,
  query,
  what,
  emptyText,
  notices,
  after,
  children,
}: {
  title: ReactNode;
  titleId: string;
  add?: {
    /** The button's label ("Add webhook"). */
    label: ReactNode;
    /** The title over the form ("New webhook"). */
    formTitle: ReactNode;
    open: boolean;
    onOpen: () => void;
    form: ReactNode;
  };
  query: {
    isPending: boolean;
    error: { message: string } | null;
    refetch?: () => unknown;
    data: readonly T[] | undefined;
  };
  /** "webhooks": in "Loading webhooks…", "The webhooks could not be loaded". */
  what: string;
  emptyText: ReactNode;
  notices?: ReactNode;
  after?: ReactNode;
  children: (items: readonly T[]) => ReactNode;
}) {
  return (
    <Panel
      title={title}
      titleId={titleId}
      actions={add && !add.open ? <Button onClick={add.onOpen}>{add.label}</Button> : null}
    >
      {add?.open ? <PanelSection title={add.formTitle}>{add.form}</PanelSection> : null}
      {notices}
      <LoadState query={query} what={what} empty={query.data?.length === 0} emptyText={emptyText} />
      {query.data?.length ? children(query.data) : null}
      {after}
    </Panel>
  );
}
