import { describe, expect, it } from "vitest";

import { placeCardIssue, splitCardIssues } from "./card-issues";

describe("card issues", () => {
  it("places a problem at the card and element numbers the editor shows", () => {
    expect(placeCardIssue("cards.1.story-elements.0.url")).toEqual({ position: "2.1", label: "URL" });
    expect(placeCardIssue("cards.0.story-elements.3.image-s3-key")).toEqual({ position: "1.4", label: "Image key" });
    expect(placeCardIssue("cards.0.story-elements.3.metadata.tweet-id")).toEqual({
      position: "1.4",
      label: "metadata tweet-id",
    });
    expect(placeCardIssue("cards.2.story-elements")).toEqual({ position: "3", label: "Elements" });
    expect(placeCardIssue("cards.2")).toEqual({ position: "3", label: null });
    expect(placeCardIssue("cards")).toEqual({ position: "", label: null });
    expect(placeCardIssue("headline")).toBeNull();
    expect(placeCardIssue("cardsx.1")).toBeNull();
  });

  it("splits the cards' problems from the others, keeping every sentence of a position", () => {
    const { byPosition, others } = splitCardIssues([
      { field: "cards.1.story-elements.0.url", issue: "must be an http(s) link" },
      { field: "cards.1.story-elements.0.text", issue: "is too long" },
      { field: "cards", issue: "at most 200 cards" },
      { field: "sectionIds", issue: "section 9 does not exist" },
    ]);
    expect(Object.fromEntries(byPosition)).toEqual({
      "2.1": ["URL: must be an http(s) link", "Text: is too long"],
      "": ["at most 200 cards"],
    });
    expect(others).toEqual([{ field: "sectionIds", issue: "section 9 does not exist" }]);
  });
});
