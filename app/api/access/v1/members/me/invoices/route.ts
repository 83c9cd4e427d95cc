// GET /api/access/v1/members/me/invoices – the reader's invoices (client API)
import { READER_LISTS } from "@/server/http/reader-subscription-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: READER_LISTS.invoices });
