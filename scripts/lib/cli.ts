/** Small helpers shared by the command-line scripts. */
import { EnvError } from "../../env.js";
import { DatabaseInUseError } from "../../server/db/adapter";

/** Run `fn`; on a configuration error print its lines (each names a variable) and exit 1. */
export function exitOnEnvError<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** Errors a person can act on are printed as their message alone; anything else keeps its stack. */
export function exitOnKnownError(error: unknown): never {
  if (error instanceof EnvError || error instanceof DatabaseInUseError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
