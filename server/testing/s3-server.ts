/**
 * A real S3-compatible server on 127.0.0.1 for storage tests (s3rver: the S3 REST API over HTTP,
 * objects kept in a temporary folder), with one bucket. The AWS SDK talks to it as to S3, path
 * style, with s3rver's fixed credentials.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import S3rver from "s3rver";

export type TestS3Server = {
  endpoint: string;
  bucket: string;
  /** s3rver accepts these (and signs with them), like any S3 key pair. */
  accessKeyId: string;
  secretAccessKey: string;
  close: () => Promise<void>;
};

export async function startS3Server(bucket = "masthead-images"): Promise<TestS3Server> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "masthead-s3rver-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    close: async () => {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
