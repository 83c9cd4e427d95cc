/**
 * Calling a route file's handler directly, as Next.js would, in integration tests:
 *
 *   const res = await callGet(GET, "/api/v1/authors/7", { authorId: "7" });
 *   expect(await readJson<{ author: WireAuthor }>(res)).toMatchObject({ … });
 */

export type RouteParams = Record<string, string | string[]>;
export type RouteHandlerFn = (req: Request, ctx: { params: Promise<RouteParams> }) => Promise<Response>;

/** GET `path` on the test publisher's host (localhost), with the route's path params. */
export function callGet(
  handler: RouteHandlerFn,
  path: string,
  params: RouteParams = {},
  headers: Record<string, string> = {},
) {
  return handler(new Request(`http://localhost${path}`, { headers: { host: "localhost", ...headers } }), {
    params: Promise.resolve(params),
  });
}

/** The response body as JSON, typed as the test expects it. */
export const readJson = async <T>(res: Response) => (await res.json()) as T;
