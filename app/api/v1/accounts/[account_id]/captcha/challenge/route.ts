// GET /api/v1/accounts/{account_id}/captcha/challenge – a proof-of-work captcha challenge for guest commenting (ALTCHA)
import { READER_ACTIONS } from "@/server/http/reader-action-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: READER_ACTIONS.captchaChallenge });
