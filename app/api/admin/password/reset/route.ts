// POST /api/admin/password/reset – the dashboard's reset page: a new password with a link's token
import { routes } from "@/server/http/route";
import { resetStaffPasswordRoute } from "@/server/http/staff-password-routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: resetStaffPasswordRoute() });
