import { describe, expect, it } from "vitest";

import { sectionRoles, visibleAreas } from "./areas";

describe("visibleAreas", () => {
  it("shows a contributor only Content → Stories, linked straight to it", () => {
    const areas = visibleAreas(["CONTRIBUTOR"]);
    expect(areas.map((a) => a.slug)).toEqual(["", "content"]);
    const content = areas.find((a) => a.slug === "content")!;
    expect(content.entry).toBe("/admin/content/stories");
    expect(content.sections?.map((s) => s.slug)).toEqual(["stories"]);
  });

  it("shows an editor the whole content area at its own address", () => {
    const content = visibleAreas(["EDITOR"]).find((a) => a.slug === "content")!;
    expect(content.entry).toBeUndefined();
    expect(content.sections?.length).toBeGreaterThan(1);
  });

  it("gives each content section its roles: stories to contributors too, the rest to editors", () => {
    expect(sectionRoles("content", "stories")).toEqual(["EDITOR", "CONTRIBUTOR"]);
    expect(sectionRoles("content", "authors")).toEqual(["EDITOR"]);
  });
});
