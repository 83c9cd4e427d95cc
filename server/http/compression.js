/**
 * Compression of every answer the Node server sends (scripts/serve.mjs), in place of Next.js's own
 * `compress`, which is off (next.config.js): gzip for clients that accept it, for compressible types
 * (text, JSON, JavaScript, XML, SVG; never event streams), when the body is 1 kB or more.
 *
 * An answer that carries an ETag (the response cache's is a hash of the exact body) is held until
 * it ends and compressed once per body: its gzip is kept in a small memo keyed by the ETag, the
 * length and a CRC-32 of the bytes, so the same answer sent again, from the response cache or built
 * afresh to the same bytes, is not compressed again (decision 0022). Every other answer (pages as
 * they stream, exports) is compressed as it is written, flushed after every chunk Next.js writes.
 *
 * As nginx does, a compressed answer's ETag is made weak (`W/`): the bytes differ from the identity
 * representation's, and `If-None-Match` compares weakly, so revalidation still gets its 304.
 * Compressible answers say `Vary: Accept-Encoding` whether or not this one was compressed.
 *
 * Not the `compression` package (what Next.js's `compress` runs): it compresses an answer again
 * every time it is sent, several times the empty route handler's cost for a cached list (decision
 * 0057, measured by scripts/bench/compression.ts).
 *
 * Plain JavaScript: scripts/serve.mjs runs as it is. On Vercel the platform compresses.
 */
import zlib from "node:zlib";

/** Compressible content types; not text/event-stream (frames go out as they are written). */
const COMPRESSIBLE =
  /^\s*(text\/(?!event-stream)[\w.+-]+|image\/svg\+xml|application\/(json|javascript|x-javascript|ecmascript|xml|[\w.-]+\+(json|xml)))\s*(;|$)/i;

/** Bodies below this are sent as they are: gzip's header and trailer would outweigh the gain. */
const THRESHOLD_BYTES = 1024;

/** An answer with an ETag larger than this is compressed as it streams, not held and kept. */
const MAX_HELD_BYTES = 4 * 1024 * 1024;

/**
 * Does this Accept-Encoding take gzip (or anything, `*`) with a q-value above zero?
 * @param {string | string[] | undefined} header
 * @returns {boolean}
 */
export function acceptsGzip(header) {
  if (typeof header !== "string" || header === "") return false;
  let star = false;
  for (const part of header.toLowerCase().split(",")) {
    const [name, ...params] = part.split(";").map((s) => s.trim());
    const q = params.find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (name === "gzip" || name === "x-gzip") return weight > 0;
    if (name === "*") star = weight > 0;
  }
  return star;
}

/** Is an answer of this content type one to compress? @param {unknown} type */
export const isCompressible = (type) => typeof type === "string" && COMPRESSIBLE.test(type);

/**
 * Compressed bodies by their ETag, length and CRC-32, least recently used dropped first, at most
 * `maxBytes` of gzip in all.
 */
export class GzipMemo {
  /** @param {number} maxBytes */
  constructor(maxBytes) {
    this.maxBytes = maxBytes;
    this.usedBytes = 0;
    /** @type {Map<string, Buffer>} */
    this.entries = new Map();
  }

  /**
   * The gzip of `body`, compressed now unless it is kept.
   * @param {string} etag
   * @param {Buffer} body
   * @returns {Buffer}
   */
  gzip(etag, body) {
    const key = `${etag}\u0000${body.length}\u0000${zlib.crc32(body)}`;
    const kept = this.entries.get(key);
    if (kept) {
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept;
    }
    const compressed = zlib.gzipSync(body);
    if (compressed.length <= this.maxBytes / 16) {
      this.entries.set(key, compressed);
      this.usedBytes += compressed.length + key.length;
      for (const [oldest, value] of this.entries) {
        if (this.usedBytes <= this.maxBytes) break;
        this.entries.delete(oldest);
        this.usedBytes -= value.length + oldest.length;
      }
    }
    return compressed;
  }
}

/**
 * Adds `token` to the response's Vary header unless it is there (or Vary is `*`).
 * @param {import("node:http").ServerResponse} res
 * @param {string} token
 */
function addVary(res, token) {
  const current = res.getHeader("vary");
  const list = Array.isArray(current) ? current.join(", ") : current === undefined ? "" : String(current);
  const names = list.split(",").map((name) => name.trim().toLowerCase());
  if (names.includes("*") || names.includes(token.toLowerCase())) return;
  res.setHeader("Vary", list ? `${list}, ${token}` : token);
}

/** @param {import("node:http").ServerResponse} res */
function markGzip(res) {
  res.setHeader("Content-Encoding", "gzip");
  res.removeHeader("Content-Length");
  const etag = res.getHeader("etag");
  if (typeof etag === "string" && !etag.startsWith("W/")) res.setHeader("ETag", `W/${etag}`);
}

/**
 * Compress what `res` sends for `req`, as the module's comment says. Called before the request
 * is handed to Next.js; wraps this response's writeHead, write, end and flushHeaders, and gives it
 * the `flush` Next.js calls after each chunk it streams.
 *
 * How an answer goes out is decided once its status and headers are final (at the first write,
 * flush or end), into one of four modes:
 * - "plain": not compressed (not compressible, not accepted, or known to be under 1 kB);
 * - "held": an answer with an ETag, held whole and compressed once per body (the memo);
 * - "pending": length unknown: held while under 1 kB, until it ends (then plain, with its length:
 *   a short JSON answer is not worth a gzip stream) or the next turn of the event loop (then
 *   streamed, so a page's first chunk is never kept waiting for the next);
 * - "stream": compressed as it is written, flushed when Next.js flushes.
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {GzipMemo} memo
 */
// eslint-disable-next-line max-lines-per-function -- one closure over the response's patched writeHead/write/end and the state they share (mode, held bytes, stream)
export function compressResponse(req, res, memo) {
  if (req.method === "HEAD") return;
  const accepted = acceptsGzip(req.headers["accept-encoding"]);
  const writeHead = res.writeHead;
  const write = res.write;
  const end = res.end;
  const flushHeaders = res.flushHeaders;
  /** @type {"plain" | "held" | "pending" | "stream" | undefined} */
  let mode;
  /** Held bytes ("held" and "pending"). @type {Buffer[]} */
  let held = [];
  let heldBytes = 0;
  /** @type {zlib.Gzip | undefined} */
  let gzip;
  /** @type {NodeJS.Immediate | undefined} */
  let turn;

  /**
   * A chunk as a Buffer: a view of the bytes written, not a copy (a writer does not change a chunk
   * once written, as for any Node.js stream).
   * @param {unknown} chunk @param {BufferEncoding | undefined} encoding
   */
  const bytesOf = (chunk, encoding) => {
    if (typeof chunk === "string") return Buffer.from(chunk, encoding);
    if (Buffer.isBuffer(chunk)) return chunk;
    const view = /** @type {Uint8Array} */ (chunk);
    return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
  };

  /** @param {number} length the body's length when known (Content-Length, or all of it at end) */
  function decide(length = Number(res.getHeader("content-length") ?? NaN)) {
    const type = res.getHeader("content-type");
    const compressible =
      isCompressible(Array.isArray(type) ? type[0] : type) &&
      res.statusCode >= 200 &&
      res.statusCode !== 204 &&
      res.statusCode !== 206 &&
      res.statusCode !== 304 &&
      !res.hasHeader("content-encoding") &&
      !/\bno-transform\b/i.test(String(res.getHeader("cache-control") ?? ""));
    if (compressible) addVary(res, "Accept-Encoding");
    if (!compressible || !accepted || length < THRESHOLD_BYTES) mode = "plain";
    else if (res.statusCode === 200 && res.hasHeader("etag") && !(length > MAX_HELD_BYTES)) mode = "held";
    else if (Number.isNaN(length)) mode = "pending";
    else mode = "stream";
  }

  /** The first write or flush: decide, and send the head unless the answer is held. */
  function begin() {
    decide();
    if (mode === "plain" || mode === "stream") sendHead();
  }

  /** The head as it stands, gzip's headers first when streaming. */
  function sendHead() {
    if (mode === "stream") startGzip();
    writeHead.call(res, res.statusCode);
  }

  function startGzip() {
    markGzip(res);
    const stream = zlib.createGzip();
    gzip = stream;
    stream.on("data", (/** @type {Buffer} */ data) => {
      if (!write.call(res, data)) stream.pause();
    });
    res.on("drain", () => stream.resume());
    res.on("close", () => stream.destroy());
  }

  /** Held bytes ("pending" past 1 kB or a turn of the loop, "held" past its bound): streamed from here on. */
  function streamHeld() {
    if (turn) clearImmediate(turn);
    if (mode === "held") res.removeHeader("etag");
    mode = "stream";
    sendHead();
    for (const chunk of held) gzip?.write(chunk);
    held = [];
    gzip?.flush();
  }

  /** Send a held body whole: compressed (through the memo when it has an ETag), or plain when short. */
  function sendHeld(/** @type {(() => void) | undefined} */ callback) {
    if (turn) clearImmediate(turn);
    const body = held.length === 1 ? /** @type {Buffer} */ (held[0]) : Buffer.concat(held);
    held = [];
    if (body.length >= THRESHOLD_BYTES) {
      const compressed = mode === "held" ? memo.gzip(String(res.getHeader("etag")), body) : zlib.gzipSync(body);
      markGzip(res);
      res.setHeader("Content-Length", compressed.length);
      writeHead.call(res, res.statusCode);
      return end.call(res, compressed, callback);
    }
    res.setHeader("Content-Length", body.length);
    writeHead.call(res, res.statusCode);
    return end.call(res, body, callback);
  }

  // Node sends implicit headers through this.writeHead(statusCode), so every path comes here. An
  // explicit writeHead only records the status and headers until the first write, flush or end.
  /** @type {any} */ (res).writeHead = function (
    /** @type {number} */ statusCode,
    /** @type {any} */ reason,
    /** @type {any} */ headers,
  ) {
    if (mode === "plain" || mode === "stream") return writeHead.apply(res, /** @type {any} */ (arguments));
    if (mode !== undefined) return res;
    if (typeof reason !== "string") {
      headers = reason;
      reason = undefined;
    }
    if (Array.isArray(headers)) {
      mode = "plain";
      return writeHead.apply(res, /** @type {any} */ (arguments));
    }
    for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) res.setHeader(name, value);
    res.statusCode = statusCode;
    if (reason) res.statusMessage = reason;
    return res;
  };

  res.flushHeaders = function () {
    if (mode === undefined) begin();
    if (mode === "plain" || mode === "stream") flushHeaders.call(res);
  };

  /** @type {any} */ (res).flush = function () {
    gzip?.flush();
  };

  /** @type {any} */ (res).write = function (
    /** @type {unknown} */ chunk,
    /** @type {any} */ encoding,
    /** @type {any} */ callback,
  ) {
    if (mode === undefined) begin();
    if (mode === "plain") return write.apply(res, /** @type {any} */ (arguments));
    if (typeof encoding === "function") [callback, encoding] = [encoding, undefined];
    const bytes = bytesOf(chunk, encoding);
    if (mode === "held" || mode === "pending") {
      held.push(bytes);
      heldBytes += bytes.length;
      if (heldBytes > (mode === "held" ? MAX_HELD_BYTES : THRESHOLD_BYTES)) streamHeld();
      else if (mode === "pending" && !turn) turn = setImmediate(() => mode === "pending" && streamHeld());
      if (callback) process.nextTick(callback);
      return true;
    }
    const ok = /** @type {zlib.Gzip} */ (gzip).write(bytes, callback);
    if (!ok) gzip?.once("drain", () => res.emit("drain"));
    return ok;
  };

  /** @type {any} */ (res).end = function (
    /** @type {any} */ chunk,
    /** @type {any} */ encoding,
    /** @type {any} */ callback,
  ) {
    if (typeof chunk === "function") [callback, chunk] = [chunk, undefined];
    if (typeof encoding === "function") [callback, encoding] = [encoding, undefined];
    // The last chunk's bytes, made once (none to make when it goes out plain as it is).
    const bytes = chunk == null || mode === "plain" ? undefined : bytesOf(chunk, encoding);
    // Ended before anything was written: the whole body is this chunk (Node sets Content-Length
    // itself when it goes out plain).
    if (mode === undefined) {
      decide(bytes?.length ?? 0);
      if (mode === "stream") sendHead();
    }
    if (mode === "plain") return end.call(res, chunk, encoding, callback);
    if (mode === "held" || mode === "pending") {
      if (bytes) held.push(bytes);
      return sendHeld(callback);
    }
    const stream = /** @type {zlib.Gzip} */ (gzip);
    if (bytes) stream.write(bytes);
    stream.once("end", () => end.call(res, callback));
    stream.end();
    return res;
  };
  res.on("close", () => {
    if (turn) clearImmediate(turn);
  });
}
