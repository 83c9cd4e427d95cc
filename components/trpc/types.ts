/** The dashboard API's input and output types by path: `RouterOutputs["organise"]["collections"]["get"]`. */
import type { inferRouterOutputs } from "@trpc/server";

import type { AppRouter } from "@/server/trpc/root";

export type RouterOutputs = inferRouterOutputs<AppRouter>;
