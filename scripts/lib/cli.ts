/** Small helpers shared by the command-line scripts. */
import { EnvError } from "../../env.js";

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
