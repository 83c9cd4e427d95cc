/**
 * What this process must stop cleanly on shutdown (the job runner, the cache listener): each part
 * adds its hook when it starts, and the HTTP server (scripts/serve.mjs) calls
 * `globalThis.mastheadStopBackground` after the last request, which runs them all. On globalThis:
 * instrumentation.ts and the server script do not share module instances.
 */
import { log } from "./log";

type StopHook = () => Promise<void>;

const globalForLifecycle = globalThis as unknown as {
  mastheadStopHooks?: StopHook[];
  mastheadStopBackground?: () => Promise<void>;
};

export function onStop(hook: StopHook): void {
  const hooks = (globalForLifecycle.mastheadStopHooks ??= []);
  hooks.push(hook);
  globalForLifecycle.mastheadStopBackground = async () => {
    await Promise.all(
      hooks.map((stop) =>
        stop().catch((error: unknown) => log.error("a background part failed to stop cleanly", { error })),
      ),
    );
  };
}
