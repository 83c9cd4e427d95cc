/**
 * The built app configured as a newsroom runs it, against real local servers the spec starts: an
 * S3-compatible bucket (s3rver) and an SMTP server (smtp-server). An image uploaded in the
 * dashboard lands in the bucket, is served from it, and is gone from both once deleted; a
 * password-reset request is delivered over SMTP, and its link sets a password that signs in.
 */
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { expect, test } from "@playwright/test";

import { startS3Server, type TestS3Server } from "../../server/testing/s3-server";
import { startSmtpServer, type TestSmtpServer } from "../../server/testing/smtp-server";
import { pngFile, submitSignIn } from "../fixtures";
import { insertAccountWithOwner, specSchema, startBuiltServer, waitFor, type BuiltServer } from "./built-server";

const SCHEMA = `mh_storage_mail_${process.pid}`;
const PORT = Number(process.env.E2E_PORT ?? 3210) + 27;
const OWNER = { email: "owner@storage-mail.example", password: "the first password of all" };
const SMTP_LOGIN = { user: "masthead", pass: "smtp-secret-pass" };

test.setTimeout(180_000);

const database = specSchema(SCHEMA);
let s3: TestS3Server;
let smtp: TestSmtpServer;
let server: BuiltServer | undefined;

test.beforeAll(async () => {
  await insertAccountWithOwner(database().prisma, { slug: "storage", owner: OWNER });
  s3 = await startS3Server();
  smtp = await startSmtpServer(SMTP_LOGIN);
  server = await startBuiltServer({
    port: PORT,
    schema: SCHEMA,
    env: {
      APP_URL: `http://127.0.0.1:${PORT}`,
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: "true",
      SMTP_URL: `smtp://${SMTP_LOGIN.user}:${SMTP_LOGIN.pass}@127.0.0.1:${smtp.port}`,
      MAIL_FROM: "The Storage Times <news@storage-mail.example>",
    },
  });
});

test.afterAll(async () => {
  await server?.kill();
  await s3?.close();
  await smtp?.close();
});

test("an image uploaded in the dashboard is stored in the bucket, served from it, and deleted from it", async ({
  page,
}) => {
  const url = server!.url;
  await page.goto(`${url}/admin/sign-in`);
  await submitSignIn(page, OWNER);
  await expect(page).toHaveURL(/\/admin$/);

  const png = pngFile("front-page.png");
  const upload = await page.request.post(`${url}/api/admin/images`, { multipart: { file: png } });
  expect(upload.status(), await upload.text()).toBe(201);
  const { key } = (await upload.json()) as { key: string };

  const bucket = new S3Client({
    endpoint: s3.endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  const stored = await bucket.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
  expect(Buffer.from(await stored.Body!.transformToByteArray())).toEqual(png.buffer);

  const served = await fetch(`${url}/images/${key}`);
  expect(served.status).toBe(200);
  expect(served.headers.get("content-type")).toBe("image/png");
  expect(Buffer.from(await served.arrayBuffer())).toEqual(png.buffer);

  const removed = await page.request.delete(`${url}/api/admin/images?key=${encodeURIComponent(key)}`);
  expect(removed.status()).toBe(204);
  expect((await fetch(`${url}/images/${key}`)).status).toBe(404);
  await expect(bucket.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }))).rejects.toMatchObject({
    name: "NoSuchKey",
  });
});

test("a password reset is delivered over SMTP, and its link sets a password that signs in", async ({ page }) => {
  const url = server!.url;
  await page.goto(`${url}/admin/forgot-password`);
  await page.getByLabel("E-mail").fill(OWNER.email);
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.getByTestId("forgot-password-done")).toBeVisible();

  const message = await waitFor(
    async () => smtp.received.find((m) => m.to.includes(OWNER.email)),
    30_000,
    "the reset mail to arrive over SMTP",
  );
  expect(message.from).toBe("news@storage-mail.example");
  // Quoted-printable bodies wrap long lines with "=\r\n" and encode "=" as "=3D".
  const body = message.raw.replace(/=\r\n/g, "").replace(/=3D/g, "=");
  const link = /(http:\/\/127\.0\.0\.1:\d+\/admin\/reset-password\?token=[\w-]+)/.exec(body)?.[1];
  expect(link, body).toBeTruthy();

  await page.goto(link!);
  await page.getByLabel("New password", { exact: true }).fill("a second, longer password");
  await page.getByLabel("Repeat the new password").fill("a second, longer password");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByTestId("reset-password-done")).toBeVisible();

  await page.goto(`${url}/admin/sign-in`);
  await submitSignIn(page, { email: OWNER.email, password: "a second, longer password" });
  await expect(page).toHaveURL(/\/admin$/);
  // The Outbox page shows the mail as sent.
  await page.goto(`${url}/admin/mail`);
  await expect(page.getByText(OWNER.email).first()).toBeVisible();
});
