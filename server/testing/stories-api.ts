/** What the tests of the content API's stories read: a story and an error as JSON, and story ids. */
import type { Newsroom } from "./newsroom-fixture";

export type Story = Record<string, unknown> & { id: string; headline: string };
export type ErrorBody = { error: { code: string; message: string; details?: { field: string; issue: string }[] } };

export const ids = (stories: Story[]) => stories.map((s) => s.id);

/** The ids of the newsroom's stories that are not published. */
export function unpublishedIds(n: Newsroom) {
  return n.unpublished.map((s) => s.id);
}
