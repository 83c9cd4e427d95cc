// ANY /api/<no such path> – the JSON 404 of the API, for every method, instead of the HTML page.
import { AppError } from "@/server/errors";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

const notFound = apiRoute(
  { auth: "public", produces: "any", summary: "No such endpoint: 404 NOT_FOUND in the API's error shape." },
  async () => {
    throw new AppError("NOT_FOUND", "There is no endpoint at this path. See /docs/api for the API reference.");
  },
);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: notFound,
  POST: notFound,
  PUT: notFound,
  PATCH: notFound,
  DELETE: notFound,
});
