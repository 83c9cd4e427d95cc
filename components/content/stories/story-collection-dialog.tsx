"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Button, Dialog, FormActions, FormField, LoadState, Select } from "@/components/ui";

/** Choose one of the account's manual collections (automated ones pick their own stories). */
export function CollectionDialog({
  open,
  count,
  pending,
  onClose,
  onChoose,
}: {
  open: boolean;
  count: number;
  pending: boolean;
  onClose: () => void;
  onChoose: (collectionId: number) => void;
}) {
  const trpc = useTRPC();
  const collections = useQuery({
    ...trpc.organise.collections.list.queryOptions({ automated: false, limit: 200 }),
    enabled: open,
  });
  const [choice, setChoice] = useState("");
  const items = collections.data?.collections ?? [];
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Add to a collection"
      description={`The ${count === 1 ? "story goes" : `${count} stories go`} to the end of the collection.`}
    >
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (choice) onChoose(Number(choice));
        }}
      >
        <LoadState
          query={collections}
          what="collections"
          empty={items.length === 0}
          emptyText="No manual collection yet."
        />
        {items.length ? (
          <FormField label="Collection">
            <Select
              name="collection"
              data-autofocus
              required
              value={choice}
              onChange={(event) => setChoice(event.target.value)}
              placeholder="Choose…"
              options={items.map((c) => ({ value: c.id, label: c.name }))}
            />
          </FormField>
        ) : null}
        <FormActions>
          <Button type="submit" variant="primary" disabled={!choice || pending}>
            Add
          </Button>
          <Button onClick={onClose}>Cancel</Button>
        </FormActions>
      </form>
    </Dialog>
  );
}
