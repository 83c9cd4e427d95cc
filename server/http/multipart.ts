/**
 * One file from a multipart/form-data upload: the content type checked (415), the body read with
 * a size limit as it streams (413), the form parsed (400), the named field required (400).
 */
import { AppError } from "../errors";
import { readBodyBytes } from "./request-body";

/** Room for the multipart envelope (boundaries, part headers) around the file itself. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export async function readUploadedFile(req: Request, args: { field: string; maxBytes: number }): Promise<Uint8Array> {
  return (await readUploadedFileWithName(req, args)).data;
}

/** As readUploadedFile, with the file's name as the browser sent it ("" when none). */
export async function readUploadedFileWithName(
  req: Request,
  args: { field: string; maxBytes: number },
): Promise<{ data: Uint8Array; name: string }> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType))
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", `Send the file as multipart/form-data, in the field "${args.field}".`);
  const body = await readBodyBytes(
    req,
    args.maxBytes + MULTIPART_OVERHEAD_BYTES,
    () => new AppError("PAYLOAD_TOO_LARGE", `The file may be at most ${args.maxBytes} bytes.`),
  );
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "Content-Type": contentType } }).formData();
  } catch {
    throw new AppError("BAD_REQUEST", "The multipart body could not be read.", {
      details: [{ field: "body", issue: "malformed multipart/form-data" }],
    });
  }
  const file = form.get(args.field);
  if (!file || typeof file === "string")
    throw new AppError("BAD_REQUEST", `Attach the file in the field "${args.field}".`, {
      details: [{ field: `body.${args.field}`, issue: "is required (a file)" }],
    });
  return { data: new Uint8Array(await file.arrayBuffer()), name: file.name ?? "" };
}
