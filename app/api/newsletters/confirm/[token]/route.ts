// POST /api/newsletters/confirm/{token} – confirm a newsletter sign-up (double opt-in), the confirm page's button
import { newsletterLinkPost } from "@/server/http/newsletter-link-routes";
import { routes } from "@/server/http/route";
import { confirmSubscription } from "@/server/newsletters/subscription-links";

export const dynamic = "force-dynamic";

const LIMIT = { name: "newsletters.confirm", limit: 120, windowSeconds: 60, by: "ip" } as const;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: newsletterLinkPost(
    {
      rateLimit: LIMIT,
      summary:
        'Confirm the token\'s "pending" subscription: "active" with confirmed_at, and the address\'s suppression (bounce, complaint, manual) lifted → 200 {newsletter, status}. Active already: the same. Unsubscribed since: unchanged (status "unsubscribed"). A browser form (Accept: text/html) gets 303 to /newsletters/confirm/<token>. 400 for a malformed token, 404 for one not signed for its row\'s account.',
    },
    async ({ db, params }) => ({
      done: await confirmSubscription(db, { token: params.token, now: new Date() }),
      page: `/newsletters/confirm/${params.token}`,
    }),
  ),
});
