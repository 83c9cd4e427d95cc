"use client";

/**
 * Sending a story back to draft with a note for its writer, and the note as the writer sees it:
 * at the top of the story while it is a draft and that move was its latest
 * (server/publishing/editorial/story-return-notes.ts).
 */
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Alert, Button, DateTime, Dialog, FormActions, FormField, Textarea } from "@/components/ui";
import { RETURN_NOTE_MAX, type TStoryStatus } from "@/server/publishing/editorial/stories.schema";

export function ReturnNoteAlert({ storyId, status }: { storyId: string; status: TStoryStatus }) {
  const trpc = useTRPC();
  const note = useQuery({ ...trpc.stories.returnNote.queryOptions({ storyId }), enabled: status === "DRAFT" });
  if (status !== "DRAFT" || !note.data) return null;
  const { data } = note;
  return (
    <Alert tone="warning" role="note" data-testid="return-note">
      <p className="font-medium">
        {data.action === "reject" ? "Rejected" : "Sent back to draft"} by {data.by ?? "someone no longer on the staff"},{" "}
        <DateTime value={data.at} />:
      </p>
      <p className="mt-1 whitespace-pre-line">{data.note}</p>
    </Alert>
  );
}

/** Asks for the optional note before a move back to draft; `onSend` makes the move. */
export function ReturnDialog({
  open,
  label,
  headline,
  onClose,
  onSend,
}: {
  open: boolean;
  /** The move's label ("Reject", "Back to draft"). */
  label: string;
  headline: string;
  onClose: () => void;
  onSend: (note: string) => void;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`${label}: "${headline}"`}
      description="The story goes back to draft. Its writer sees your note at the top of the story."
    >
      {open ? <ReturnForm label={label} onClose={onClose} onSend={onSend} /> : null}
    </Dialog>
  );
}

function ReturnForm({
  label,
  onClose,
  onSend,
}: {
  label: string;
  onClose: () => void;
  onSend: (note: string) => void;
}) {
  const [note, setNote] = useState("");
  const id = useId();
  return (
    <div>
      <FormField
        label="Note to the writer"
        id={id}
        optional
        hint={`What to change, at most ${RETURN_NOTE_MAX} characters.`}
      >
        <Textarea
          data-autofocus
          rows={4}
          maxLength={RETURN_NOTE_MAX}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
      </FormField>
      <FormActions>
        <Button
          variant="primary"
          onClick={() => {
            onClose();
            onSend(note);
          }}
        >
          {label}
        </Button>
        <Button onClick={onClose}>Cancel</Button>
      </FormActions>
    </div>
  );
}
