// POST /api/admin/password/forgot – "Forgot password?" of the dashboard: a reset link by e-mail (same answer for every e-mail)
import { routes } from "@/server/http/route";
import { forgotStaffPasswordRoute } from "@/server/http/staff-password-routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: forgotStaffPasswordRoute() });
