/**
 * The editorial workflow of a story, as a pure transition table (no I/O; unit tested).
 *
 *   DRAFT ──submit──▶ SUBMITTED ──approve──▶ APPROVED ──publish──▶ PUBLISHED ──retract──▶ RETRACTED
 *     ▲                  │                      │                      │ (edit)               │
 *     └──────reject──────┘                      │                      ▼                      │
 *     └──────────────back to draft──────────────┘                  PUBLISHED                  │
 *     └──────────────────────────────back to draft────────────────────────────────────────────┘
 *
 * Every move emits one CONTENT webhook event (server/webhooks/events.schema.ts). A story going back
 * to draft, whichever state it left, is a `story-reject`: receivers tell the cases apart by the
 * payload's `previous-status`. Saving a published story again keeps it published and emits
 * `story-update`; saving a story in any other state emits nothing.
 */
import type { TContentWorkflowEvent, TStoryAction, TStoryStatus } from "./stories.schema";

type WorkflowMove = {
  action: TStoryAction;
  from: TStoryStatus;
  to: TStoryStatus;
  event: TContentWorkflowEvent;
  label: string;
};

export const WORKFLOW: readonly WorkflowMove[] = [
  { action: "submit", from: "DRAFT", to: "SUBMITTED", event: "story-submit", label: "Submit" },
  { action: "approve", from: "SUBMITTED", to: "APPROVED", event: "story-approve", label: "Approve" },
  { action: "reject", from: "SUBMITTED", to: "DRAFT", event: "story-reject", label: "Reject" },
  { action: "publish", from: "APPROVED", to: "PUBLISHED", event: "story-publish", label: "Publish" },
  { action: "back-to-draft", from: "APPROVED", to: "DRAFT", event: "story-reject", label: "Back to draft" },
  { action: "retract", from: "PUBLISHED", to: "RETRACTED", event: "story-retract", label: "Retract" },
  { action: "back-to-draft", from: "RETRACTED", to: "DRAFT", event: "story-reject", label: "Back to draft" },
];

/** The event a save (not a move) of a story in `status` emits, if any. */
export function eventForSave(status: TStoryStatus): TContentWorkflowEvent | null {
  return status === "PUBLISHED" ? "story-update" : null;
}

/** The moves open to a story in `status`, in the order the dashboard shows them. */
export function movesFrom(status: TStoryStatus): WorkflowMove[] {
  return WORKFLOW.filter((move) => move.from === status);
}

type MoveResult = { ok: true; move: WorkflowMove } | { ok: false; reason: string };

/** Where `action` takes a story in `status`, or why it cannot. */
export function resolveMove(status: TStoryStatus, action: TStoryAction): MoveResult {
  const move = WORKFLOW.find((m) => m.from === status && m.action === action);
  if (move) return { ok: true, move };
  const open = movesFrom(status).map((m) => m.action);
  return {
    ok: false,
    reason: `A ${status.toLowerCase()} story cannot be moved with "${action}"; ${open.length ? `possible: ${open.join(", ")}` : "no move is possible"}.`,
  };
}

/** Only drafts can be deleted; a story that is live (or on its way) is moved back to draft, or retracted, first. */
export function canDelete(status: TStoryStatus): boolean {
  return status === "DRAFT";
}
