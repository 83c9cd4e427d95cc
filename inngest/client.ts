/** The one Inngest client. Keys and URLs come from env.js (INNGEST_*). */
import { Inngest } from "inngest";

import { getEnv } from "../env.js";

const env = getEnv();

export const inngest = new Inngest({
  id: "masthead",
  ...(env.INNGEST_EVENT_KEY ? { eventKey: env.INNGEST_EVENT_KEY } : {}),
  ...(env.INNGEST_SIGNING_KEY ? { signingKey: env.INNGEST_SIGNING_KEY } : {}),
  ...(env.INNGEST_BASE_URL ? { baseUrl: env.INNGEST_BASE_URL } : {}),
  ...(env.INNGEST_DEV ? { isDev: true } : {}),
});
