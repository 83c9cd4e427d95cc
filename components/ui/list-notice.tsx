/**
 * What an action on a list said, shown above its rows (ListPanel's `notices`), indented as they
 * are: `ListNotice` holds any notice, `ListError` an action's error (nothing without one) and
 * `ListStatus` a success message in a live region that screen readers announce.
 */
import type { ReactNode } from "react";

import { Alert, ErrorAlert } from "./alert";

export function ListNotice({ children }: { children: ReactNode }) {
  return <div className="px-4 pt-3">{children}</div>;
}

export function ListError({ error }: { error: unknown }) {
  return error ? (
    <ListNotice>
      <ErrorAlert error={error} />
    </ListNotice>
  ) : null;
}

export function ListStatus({ message }: { message: ReactNode }) {
  return (
    <div aria-live="polite" className="empty:hidden">
      {message ? (
        <ListNotice>
          <Alert tone="success" role="status">
            {message}
          </Alert>
        </ListNotice>
      ) : null}
    </div>
  );
}
