/** The paywall meter's rules for the access rule's tests: 3 free stories a month, anonymous readers metered. */
import type { MeterState } from "../subscriptions/access/access-rule";
import type { MeterRules } from "../subscriptions/access/meter";

export const meterRules = (over: Partial<MeterRules> = {}): MeterRules => ({
  enabled: true,
  freeStories: 3,
  periodLength: 1,
  periodUnit: "MONTHS",
  meterAnonymous: true,
  registrationWall: false,
  registrationFreeStories: 2,
  ...over,
});

/** A reader (`readerKey`, signed in or not) on `rules`, `views` of the period's stories read, this one not counted yet. */
export const meterReader = (
  reader: { rules: MeterRules; readerKey: string; loggedIn: boolean },
  views: number,
  over: Partial<MeterState> = {},
): MeterState => ({ ...reader, views, counted: false, ...over });
