/**
 * Structured JSON logs, one line per entry, on stderr, written by pino: `time` (ISO), `level`
 * ("info"…), `message`, `pid`, `hostname` (which instance), then the entry's fields (a request's
 * `requestId` among them). Values under secret-looking keys are replaced before anything is
 * written, so a logged request or error never carries a key, password, token or cookie.
 * LOG_LEVEL=silent prints nothing. `npx pino-pretty` reads these lines for humans.
 */
import pino from "pino";

import { getEnv } from "../env.js";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, "silent">;

const SECRET_KEY = /pass(word)?|secret|token|jwt|authorization|cookie|api[-_]?key|^key$|subauth|signature|hash/i;

/** A copy of `value` with secret-looking keys replaced by "[redacted]" (depth-limited). */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return "[…]";
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? "[redacted]" : redact(v, depth + 1)]),
    );
  }
  return value;
}

// Written through process.stderr (synchronous for files, terminals and pipes on Linux: an entry
// written just before the process dies is not lost), so whatever captures process.stderr sees it.
// The level is checked per entry (LOG_LEVEL is read from the environment, which tests change).
const globalLogger = globalThis as typeof globalThis & { mastheadPino?: pino.Logger };
function logger(): pino.Logger {
  globalLogger.mastheadPino ??= pino(
    {
      level: "debug",
      messageKey: "message",
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    process.stderr,
  );
  return globalLogger.mastheadPino;
}

function write(level: Level, message: string, fields?: Record<string, unknown>) {
  const threshold = LEVELS[getEnv().LOG_LEVEL];
  if (LEVELS[level] < threshold) return;
  logger()[level]((fields ? redact(fields) : {}) as object, message);
}

export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};
