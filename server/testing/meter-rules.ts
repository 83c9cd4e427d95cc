/** The paywall meter's rules for the access rule's tests: 3 free stories a month, anonymous readers metered. */
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
