/**
 * How a service call ended, for tests that check many outcomes in a row:
 *
 *   expect(await appErrorCodeOf(createSection(db, { actor, input, now }))).toBe("CONFLICT");
 */
import { isAppError, type AppErrorCode } from "../errors";

/** "OK", or the code of the AppError the call threw. Anything else is rethrown. */
export async function appErrorCodeOf(promise: Promise<unknown>): Promise<AppErrorCode | "OK"> {
  try {
    await promise;
    return "OK";
  } catch (error) {
    if (isAppError(error)) return error.code;
    throw error;
  }
}
