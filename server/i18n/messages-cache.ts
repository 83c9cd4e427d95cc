/**
 * The purge key of every kept answer that carries an account's reader messages with its overrides
 * merged (a widget frame's page, the SDK's messages: docs/i18n.md; the response cache,
 * server/cache/response-cache.ts). Such an answer lists it among its purge keys; the database
 * announces it at the commit of every change to what it shows: an override saved or removed
 * (message_overrides), the account's default locale or the locales it offers (publisher_configs),
 * whoever writes (migration 20261130100000_messages_announced). Nothing else purges it by hand.
 */
export const MESSAGES_PURGE_KEY = "messages";
