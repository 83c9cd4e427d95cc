/**
 * A link to another page of the app that does not prefetch it. Next.js prefetches every link in
 * the window by default: the dashboard's navigation alone has some forty-five, so each page view
 * asked the server for about sixty-six prefetches (a render of each page's layout, with the
 * session check) that the user would mostly never open (docs/decisions/0029). A click fetches the
 * page it opens; its progress shows while it comes (admin-nav.tsx).
 */
import Link from "next/link";
import type { ComponentProps } from "react";

export function PageLink(props: ComponentProps<typeof Link>) {
  return <Link prefetch={false} {...props} />;
}
