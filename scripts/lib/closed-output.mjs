// Imported for its effect by the processes that serve the app (scripts/start.ts, scripts/serve.mjs).
//
// Output whose reader has gone (a closed terminal, a pipe whose reader stopped) fails every write
// with EPIPE. Without a listener each failure is an uncaught error: start.ts would die of it and
// leave its server running alone, and in the server Next.js reported each one on the same output,
// which failed again (a full core held, the shutdown never finished). What is written then is lost.
for (const stream of [process.stdout, process.stderr])
  stream.on("error", (error) => {
    if (error.code !== "EPIPE") throw error;
  });
