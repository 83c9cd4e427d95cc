import type { Metadata } from "next";

import { AreaIndex } from "../_lib/area-index";

export const metadata: Metadata = { title: "Content" };

/** The content area's index: one entry per section (stories, collections, authors, sections, tags, entities). */
export default function ContentPage() {
  return <AreaIndex area="content" />;
}
