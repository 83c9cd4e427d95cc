/**
 * The Node.js flags the server process starts with (scripts/start.ts), from the configuration.
 * `--heap-growing-percent` keeps V8's heap close to its live data (HEAP_GROWTH_PERCENT,
 * docs/operations.md "Memory"); V8 refuses it in NODE_OPTIONS, so it goes on the command line.
 */
export function serverNodeFlags(env: { HEAP_GROWTH_PERCENT: number }): string[] {
  return env.HEAP_GROWTH_PERCENT > 0 ? [`--heap-growing-percent=${env.HEAP_GROWTH_PERCENT}`] : [];
}
