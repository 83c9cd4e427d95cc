/** Where the dashboard's uploaded exports are kept, and their digest. */
import "server-only";

import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

/** Where an upload's bytes are: IMPORT_DIR/<account id>/<upload id>. */
export function uploadPath(dir: string, accountId: number, uploadId: string): string {
  return path.join(dir, String(accountId), uploadId);
}

/** SHA-256 of a stored upload, hex; null when the file is gone. */
export async function digestOfFile(file: string): Promise<string | null> {
  const hash = createHash("sha256");
  try {
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  return hash.digest("hex");
}

/** Whether the stored file is gzip-compressed (its first two bytes). */
export async function isGzipFile(file: string): Promise<boolean> {
  const handle = await fs.open(file, "r").catch(() => null);
  if (!handle) return false;
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}
