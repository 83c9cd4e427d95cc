/**
 * One instance's hub of live comment streams (docs/engagement.md "Live threads"). It hears the
 * database's live notices once (./source.ts: the instance's one LISTEN connection, not one per
 * stream), reads what a notice names once per page (./events.ts), encodes it once, and writes the
 * same bytes to every open stream of that page. One timer for the whole hub sends heartbeats,
 * ends streams that have lived their time (the browser reconnects with Last-Event-ID, spreading
 * streams over instances) and, while the listener is down, reads the open pages' events itself.
 *
 * Bounds: streams per page and per instance (beyond them, SERVICE_UNAVAILABLE with Retry-After:
 * the widget polls instead), and bytes waiting per stream (a reader that does not read is
 * dropped, not buffered for).
 */
import "server-only";

import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { log } from "../../log";
import { readLiveNotice, summarizeEvents, type LiveEvent } from "./changes";
import { eventsAfter, eventsInRange, pageLiveState, pageTotalCount } from "./events";
import type { TLiveState } from "./live.schema";
import type { LiveSource } from "./source";
import { SSE_HEARTBEAT, sseEvent, sseRetry } from "./sse";

export type LiveLimits = {
  /** Open streams of one page on this instance. */
  perPage: number;
  /** Open streams on this instance. */
  perInstance: number;
  /** Open streams of one client address on this instance (a NAT of many readers: the rest poll). */
  perClient: number;
  heartbeatMs: number;
  /** A stream ends after this long; the browser reconnects (and may land on another instance). */
  maxAgeMs: number;
  /** Chunks a stream may have waiting unread before it is dropped. */
  maxQueued: number;
  /** Notices of one page within this long are read and sent as one change. */
  coalesceMs: number;
  /** While the listener is down: how often the open pages' events are read. */
  deafPollMs: number;
  /** The browser's reconnection delay (the stream's `retry:`). */
  retryMs: number;
};

const LIVE_LIMITS: LiveLimits = {
  perPage: 2_500,
  perInstance: 10_000,
  perClient: 50,
  heartbeatMs: 20_000,
  maxAgeMs: 15 * 60_000,
  maxQueued: 64,
  coalesceMs: 25,
  deafPollMs: 2_000,
  retryMs: 3_000,
};

/** Seconds a refused stream is told to wait (Retry-After). */
const LIVE_RETRY_AFTER_SECONDS = 30;

type Stream = {
  page: PageStreams;
  client: string | undefined;
  controller: ReadableStreamDefaultController<Uint8Array>;
  /** Live chunks held while the stream's opening (state, catch-up) is written. */
  held: Uint8Array[] | null;
  openedAt: number;
  closed: boolean;
  detach: () => void;
};

type PageStreams = {
  accountId: number;
  pageId: number;
  streams: Set<Stream>;
  /** The page's state as last read or sent (null until read). */
  state: TLiveState | null;
  /** The newest event sent to the page's streams. */
  cursor: bigint;
  pending: { from: bigint; to: bigint } | null;
  timer: NodeJS.Timeout | undefined;
  /** A read of the page's events is under way: notices meanwhile wait for it. */
  reading: Promise<void> | null;
  /** The state being read for the streams opening (one read however many open at once). */
  stateRead: Promise<TLiveState> | null;
  /** Catch-ups under way, by cursor (streams reconnecting together mostly share one). */
  catchUps: Map<string, ReturnType<typeof eventsAfter>>;
  /** The `ready` event of the state, encoded once. */
  readyChunk: Uint8Array | null;
};

const globalForStopping = globalThis as unknown as { mastheadStopping?: boolean };

export class LiveHub {
  private readonly pages = new Map<number, PageStreams>();
  private streams = 0;
  private readonly byClient = new Map<string, number>();
  private tick: NodeJS.Timeout | undefined;
  private lastDeafPoll = 0;
  private hearing = false;
  private started = false;
  readonly limits: LiveLimits;
  private readonly retryChunk: Uint8Array;

  constructor(
    private readonly db: Db,
    private readonly source: LiveSource,
    limits: Partial<LiveLimits> = {},
  ) {
    this.limits = { ...LIVE_LIMITS, ...limits };
    this.retryChunk = sseRetry(this.limits.retryMs);
  }

  /** Streams and pages open on this instance. */
  stats(): { streams: number; pages: number; hearing: boolean } {
    return { streams: this.streams, pages: this.pages.size, hearing: this.hearing };
  }

  /**
   * Open a stream of the page's changes: `retry:`, a `ready` event (the state), with `since` what
   * changed after it (a `change` event, or `resync` when that cannot be told), then each change
   * as it commits. Ends when `signal` aborts, the reader cancels, or the hub ends it.
   * SERVICE_UNAVAILABLE (Retry-After) past the bounds, or while the instance stops.
   */
  open(args: {
    accountId: number;
    pageId: number;
    since: bigint | null;
    signal?: AbortSignal;
    /** The client's address, for the per-client bound. */
    client?: string;
  }): ReadableStream<Uint8Array> {
    this.assertRoom(args.pageId, args.client);
    this.ensureStarted();
    const page = this.pageOf(args.accountId, args.pageId);
    let stream: Stream | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        stream = {
          page,
          client: args.client,
          controller,
          held: [],
          openedAt: Date.now(),
          closed: false,
          detach: () => undefined,
        };
        page.streams.add(stream);
        this.streams++;
        if (args.client) this.byClient.set(args.client, (this.byClient.get(args.client) ?? 0) + 1);
      },
      cancel: () => {
        if (stream) this.close(stream);
      },
    });
    const opened = stream!;
    if (args.signal) {
      const signal = args.signal;
      const onAbort = () => this.close(opened);
      if (signal.aborted) onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      opened.detach = () => signal.removeEventListener("abort", onAbort);
    }
    void this.begin(opened, args.since).catch((error: unknown) => {
      log.warn("live threads: a stream could not start", { error });
      this.close(opened);
    });
    return body;
  }

  /** Hear a notice (from the source; tests call it too). */
  notice(payload: string | undefined): void {
    const notice = readLiveNotice(payload);
    if (!notice) return;
    const page = this.pages.get(notice.page);
    if (!page || page.accountId !== notice.account) return;
    page.pending = page.pending
      ? {
          from: notice.from < page.pending.from ? notice.from : page.pending.from,
          to: notice.to > page.pending.to ? notice.to : page.pending.to,
        }
      : { from: notice.from, to: notice.to };
    page.timer ??= setTimeout(() => {
      page.timer = undefined;
      void this.flush(page);
    }, this.limits.coalesceMs);
  }

  /** End every stream and stop hearing. */
  async stop(): Promise<void> {
    for (const page of [...this.pages.values()]) for (const stream of [...page.streams]) this.close(stream);
    if (this.tick) clearInterval(this.tick);
    this.tick = undefined;
    if (this.started) await this.source.stop();
    this.started = false;
  }

  // ─── opening ───────────────────────────────────────────────────────────────────────────────

  private assertRoom(pageId: number, client: string | undefined): void {
    const refuse = (why: string) =>
      new AppError("SERVICE_UNAVAILABLE", `${why}: poll the page's events instead, or try the stream again later.`, {
        headers: { "Retry-After": String(LIVE_RETRY_AFTER_SECONDS) },
      });
    if (globalForStopping.mastheadStopping) throw refuse("This instance is stopping");
    if (this.streams >= this.limits.perInstance) throw refuse("This instance holds as many live streams as it may");
    if ((this.pages.get(pageId)?.streams.size ?? 0) >= this.limits.perPage)
      throw refuse("This page has as many live streams on this instance as it may");
    if (client && (this.byClient.get(client) ?? 0) >= this.limits.perClient)
      throw refuse("This address has as many live streams on this instance as it may");
  }

  private ensureStarted(): void {
    if (this.started) return;
    this.started = true;
    this.source.start({
      onNotice: (payload) => this.notice(payload),
      onHearing: (hearing) => {
        const regained = hearing && !this.hearing;
        this.hearing = hearing;
        // Notices sent while nobody listened are lost: read what the open pages missed.
        if (regained) this.catchUpAll();
      },
    });
  }

  private pageOf(accountId: number, pageId: number): PageStreams {
    let page = this.pages.get(pageId);
    if (!page || page.accountId !== accountId) {
      page = {
        accountId,
        pageId,
        streams: new Set(),
        state: null,
        cursor: 0n,
        pending: null,
        timer: undefined,
        reading: null,
        stateRead: null,
        catchUps: new Map(),
        readyChunk: null,
      };
      this.pages.set(pageId, page);
    }
    this.tick ??= setInterval(() => this.onTick(), Math.min(this.limits.heartbeatMs, this.limits.deafPollMs));
    this.tick.unref?.();
    return page;
  }

  /** Write the stream's opening, then what was held for it meanwhile. */
  private async begin(stream: Stream, since: bigint | null): Promise<void> {
    const page = stream.page;
    if (!page.state) {
      page.stateRead ??= pageLiveState(this.db, page.accountId, page.pageId).finally(() => (page.stateRead = null));
      const state = await page.stateRead;
      if (!page.state) {
        page.state = state;
        page.readyChunk = null;
        const cursor = BigInt(state.cursor);
        if (cursor > page.cursor) page.cursor = cursor;
      }
    }
    page.readyChunk ??= sseEvent("ready", page.state, page.state.cursor);
    const chunks = [this.retryChunk, page.readyChunk];
    if (since !== null && since.toString() !== page.state.cursor) {
      const key = since.toString();
      let catchUp = page.catchUps.get(key);
      if (!catchUp) {
        catchUp = eventsAfter(this.db, page.pageId, since).finally(() => page.catchUps.delete(key));
        page.catchUps.set(key, catchUp);
      }
      const caught = await catchUp;
      if (caught.resync) chunks.push(sseEvent("resync", page.state, page.state.cursor));
      else {
        const change = summarizeEvents(caught.events, page.state.total_count);
        if (change) chunks.push(sseEvent("change", change, change.cursor));
      }
    }
    if (stream.closed) return;
    const held = stream.held ?? [];
    stream.held = null;
    for (const chunk of [...chunks, ...held]) this.write(stream, chunk);
  }

  // ─── delivering ────────────────────────────────────────────────────────────────────────────

  /** Read what the page's pending notices name, and send it to the page's streams. */
  private async flush(page: PageStreams): Promise<void> {
    if (page.reading) await page.reading;
    const range = page.pending;
    page.pending = null;
    if (!range || page.streams.size === 0) return;
    await this.read(page, () => eventsInRange(this.db, page.pageId, range.from, range.to));
  }

  /** Read the events of the open pages after what each was sent (the listener was down, or is back). */
  private catchUpAll(): void {
    for (const page of this.pages.values()) {
      if (page.reading || !page.state) continue;
      void this.read(page, async () => {
        const caught = await eventsAfter(this.db, page.pageId, page.cursor);
        if (!caught.resync) return caught.events;
        // Too much was missed: every stream of the page reads the list again.
        const state = await pageLiveState(this.db, page.accountId, page.pageId);
        page.state = state;
        page.readyChunk = null;
        page.cursor = BigInt(state.cursor);
        this.broadcast(page, sseEvent("resync", state, state.cursor));
        return [];
      });
    }
  }

  private read(page: PageStreams, events: () => Promise<LiveEvent[]>): Promise<void> {
    const reading = (async () => {
      const read = await events();
      if (read.length === 0) return;
      const total = await pageTotalCount(this.db, page.accountId, page.pageId);
      const change = summarizeEvents(read, total)!;
      const cursor = BigInt(change.cursor);
      if (cursor > page.cursor) page.cursor = cursor;
      const latest = change.created.length > 0 ? new Date().toISOString() : (page.state?.latest_comment_at ?? null);
      page.state = { cursor: page.cursor.toString(), total_count: total, latest_comment_at: latest };
      page.readyChunk = null;
      this.broadcast(page, sseEvent("change", change, change.cursor));
    })()
      .catch((error: unknown) => log.warn("live threads: a page's events could not be read", { error }))
      .finally(() => {
        if (page.reading === reading) page.reading = null;
      });
    page.reading = reading;
    return reading;
  }

  private broadcast(page: PageStreams, chunk: Uint8Array): void {
    for (const stream of [...page.streams]) this.write(stream, chunk);
  }

  private write(stream: Stream, chunk: Uint8Array): void {
    if (stream.closed) return;
    if (stream.held) {
      if (stream.held.length >= this.limits.maxQueued) return this.close(stream);
      stream.held.push(chunk);
      return;
    }
    // desiredSize counts chunks (high-water mark 1): far below zero, the reader is not reading.
    if ((stream.controller.desiredSize ?? 0) < -this.limits.maxQueued) return this.close(stream);
    try {
      stream.controller.enqueue(chunk);
    } catch {
      this.close(stream);
    }
  }

  private close(stream: Stream): void {
    if (stream.closed) return;
    stream.closed = true;
    stream.detach();
    try {
      stream.controller.close();
    } catch {
      // Already closed or errored by the reader.
    }
    const page = stream.page;
    if (page.streams.delete(stream)) {
      this.streams--;
      if (stream.client) {
        const left = (this.byClient.get(stream.client) ?? 1) - 1;
        if (left > 0) this.byClient.set(stream.client, left);
        else this.byClient.delete(stream.client);
      }
    }
    if (page.streams.size === 0 && this.pages.get(page.pageId) === page) {
      this.pages.delete(page.pageId);
      if (page.timer) clearTimeout(page.timer);
    }
    if (this.streams === 0 && this.tick) {
      clearInterval(this.tick);
      this.tick = undefined;
    }
  }

  // ─── the hub's one timer ──────────────────────────────────────────────────────────────────

  private lastHeartbeat = Date.now();

  private onTick(): void {
    const now = Date.now();
    if (!this.hearing && now - this.lastDeafPoll >= this.limits.deafPollMs) {
      this.lastDeafPoll = now;
      this.catchUpAll();
    }
    const stopping = Boolean(globalForStopping.mastheadStopping);
    const beat = now - this.lastHeartbeat >= this.limits.heartbeatMs;
    if (!beat && !stopping) return;
    if (beat) this.lastHeartbeat = now;
    for (const page of [...this.pages.values()]) {
      for (const stream of [...page.streams]) {
        if (stopping || now - stream.openedAt >= this.limits.maxAgeMs) this.close(stream);
        else if (beat && !stream.held) this.write(stream, SSE_HEARTBEAT);
      }
    }
  }
}
