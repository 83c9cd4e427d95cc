// Runs once when the Next.js server starts: begin background work in this process when no
// Inngest is configured (server/jobs/background.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startBackgroundWork } = await import("./server/jobs/background");
  startBackgroundWork();
}
