/**
 * Where a hub hears the live notices: a subscription to the deployment's live channel on a
 * database listener (server/db/listener.ts). On PostgreSQL that is the instance's one LISTEN
 * connection, shared with the caches (while it is down the hub reads the table instead:
 * ./hub.ts); on PGlite, the database itself, which one process holds.
 */
import "server-only";

import type { NoticeListener } from "../../db/listener";
import { liveChannel } from "./events";

export type LiveSource = {
  /** Hear notices (`onNotice`), and whether nothing is missed (`onHearing(false)`: notices may be lost). */
  start(handlers: { onNotice: (payload: string | undefined) => void; onHearing: (hearing: boolean) => void }): void;
  stop(): Promise<void>;
};

/** The live channel of `listener`'s schema, as a hub's source. */
export function liveSource(listener: NoticeListener): LiveSource {
  let unsubscribe: (() => Promise<void>) | undefined;
  return {
    start(handlers) {
      unsubscribe = listener.subscribe(liveChannel(listener.schema), {
        notice: handlers.onNotice,
        hearing: handlers.onHearing,
      });
    },
    async stop() {
      await unsubscribe?.();
      unsubscribe = undefined;
    },
  };
}
