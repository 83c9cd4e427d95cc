/**
 * Finding a reader of an account by what a person types into one search box: the one lookup of
 * members, used by the subscribers page (area B) and the Community page (engagement).
 *
 * `q` matches, ignoring case, a part of the sign-in e-mail, the communication e-mail, the name, the
 * username, the phone number or any identity's external id (a publisher-JWT id, a social login's
 * subject); exactly, a member id (`123` or `#123`) and `provider:identity` (`publisher:abc`,
 * `email:ada@example.com`). `%`, `_` and `\` match only themselves.
 */
import type { Prisma } from "../generated/prisma/client";

const MAX_MEMBER_ID = 2_147_483_647;

/** The sign-in e-mail, as `provider:identity` names it. */
const EMAIL_PROVIDER = "email";

/** `text` as a literal inside a LIKE pattern (Prisma's `contains`). */
const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, "\\$&");

/** The conditions any of which a member matching `q` meets (`q` trimmed and not empty). */
export function memberLookupConditions(q: string): Prisma.MemberWhereInput[] {
  const contains = { contains: likeLiteral(q), mode: "insensitive" as const };
  const or: Prisma.MemberWhereInput[] = [
    { email: contains },
    { communicationEmail: contains },
    { name: contains },
    { username: contains },
    { phoneNumber: contains },
    { identities: { some: { externalId: contains } } },
  ];
  const id = /^#?(\d{1,10})$/.exec(q);
  if (id && Number(id[1]) <= MAX_MEMBER_ID) or.push({ id: Number(id[1]) });
  const pair = /^([a-z][a-z0-9_-]{0,49}):(.+)$/i.exec(q);
  if (pair) {
    const provider = pair[1]!.toLowerCase();
    const value = pair[2]!.trim();
    // An e-mail is the sign-in e-mail, or a further one the subscriber holds (an identity row).
    or.push(
      provider === EMAIL_PROVIDER
        ? {
            OR: [
              { email: value.toLowerCase() },
              { identities: { some: { provider, externalId: value.toLowerCase() } } },
            ],
          }
        : { identities: { some: { provider, externalId: value } } },
    );
  }
  return or;
}
