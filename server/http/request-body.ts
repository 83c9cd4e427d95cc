/**
 * Reading a request's input: the query as an object, and the body, size-limited as it streams
 * (413), of an accepted content type (415), parsed (400). Used by apiRoute (./route.ts) and by the
 * routes that take a raw body (gateway webhooks, uploads).
 */
import { AppError } from "../errors";
import { nullPrototypeRecord } from "../own-keys";

/** The body types a route accepts: JSON, JSON sent as text/plain, or a form. */
export type BodyType = "json" | "text-json" | "form";

/** Query parameters as an object; repeated keys (ids[]=1&ids[]=2) become arrays under the bare name. */
export function searchParamsToObject(params: URLSearchParams): Record<string, string | string[]> {
  const out = nullPrototypeRecord<string | string[]>();
  for (const [rawKey, value] of params) {
    const isArray = rawKey.endsWith("[]");
    const key = isArray ? rawKey.slice(0, -2) : rawKey;
    const existing = out[key];
    if (existing === undefined) out[key] = isArray ? [value] : value;
    else out[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}

/** The request's media type, lower-cased, without parameters ("" when none is sent). */
export function mediaTypeOf(req: Request): string {
  return (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/** A JSON media type: application/json, or any +json. */
export function isJsonType(contentType: string): boolean {
  return matchesType("json", contentType);
}

/** A JSON body's value; BAD_REQUEST when the text does not parse. */
export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError("BAD_REQUEST", "The body is not valid JSON.", {
      details: [{ field: "body", issue: "malformed JSON" }],
    });
  }
}

/** The body, size-limited as it streams (413), of an accepted content type (415), parsed (400). */
export async function readBody(req: Request, types: BodyType[], maxBytes: number): Promise<unknown> {
  const contentType = mediaTypeOf(req);
  const text = await readLimited(req, maxBytes);
  if (!text.trim()) {
    if (!contentType || types.some((t) => matchesType(t, contentType))) return {};
  }
  if (!types.some((t) => matchesType(t, contentType))) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", `Send the body as ${types.map(typeLabel).join(" or ")}.`);
  }
  if (contentType === "application/x-www-form-urlencoded") return searchParamsToObject(new URLSearchParams(text));
  return parseJsonBody(text);
}

function matchesType(type: BodyType, contentType: string): boolean {
  if (type === "json") return contentType === "application/json" || contentType.endsWith("+json");
  if (type === "text-json") return contentType === "text/plain";
  return contentType === "application/x-www-form-urlencoded";
}

function typeLabel(type: BodyType): string {
  return type === "json"
    ? "application/json"
    : type === "text-json"
      ? "text/plain (JSON)"
      : "application/x-www-form-urlencoded";
}

async function readLimited(req: Request, maxBytes: number): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(req, maxBytes));
}

/**
 * The raw body, refused with `tooLarge()` (by default PAYLOAD_TOO_LARGE "The body is larger than
 * <maxBytes> bytes.") once it is certainly over `maxBytes`: by its Content-Length, or while it
 * streams in (a body without one is never read past the limit).
 */
export async function readBodyBytes(
  req: Request,
  maxBytes: number,
  tooLarge: () => AppError = () => new AppError("PAYLOAD_TOO_LARGE", `The body is larger than ${maxBytes} bytes.`),
): Promise<Buffer<ArrayBuffer>> {
  if (Number(req.headers.get("content-length") ?? "0") > maxBytes) throw tooLarge();
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    // A client that goes away mid-body ("aborted"): its mistake, answered (to nobody) as a 400, not logged as a server error.
    const { done, value } = await reader.read().catch(() => {
      throw new AppError("BAD_REQUEST", "The body ended before it was whole.", {
        details: [{ field: "body", issue: "was cut off" }],
      });
    });
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      // Not awaited: a branch of a cloned body settles its cancel only once the other branch is cancelled too.
      reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
