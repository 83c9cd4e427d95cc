// Runs once when the Next.js server starts: pick the engine of background work for this process
// (server/jobs/background.ts): Inngest when configured, the local runner otherwise.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getEnv } = await import("./env.js");
  if (getEnv().inngestEnabled) {
    const { handJobsToInngest } = await import("./inngest/hand-off");
    handJobsToInngest();
  } else {
    const { startLocalRunner } = await import("./server/jobs/background");
    startLocalRunner();
  }
}
