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
 * Plain JavaScript: scripts/serve.mjs runs as it is. On Vercel the platform compresses.
 */
import zlib from "node:zlib";

/** Compressible content types; not text/event-stream (frames go out as they are written). */
const COMPRESSIBLE =
  /^\s*(text\/(?!event-stream)[\w.+-]+|image\/svg\+xml|application\/(json|javascript|x-javascript|ecmascript|xml|[\w.-]+\+(json|xml)))\s*(;|$)/i;

/** Bodies below this are sent as they are: gzip's header and trailer would outweigh the gain. */
export const THRESHOLD_BYTES = 1024;

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
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {GzipMemo} memo
 */
export function compressResponse(req, res, memo) {
  if (req.method === "HEAD") return;
  const accepted = acceptsGzip(req.headers["accept-encoding"]);
  const writeHead = res.writeHead;
  const write = res.write;
  const end = res.end;
  const flushHeaders = res.flushHeaders;
  /** @type {"plain" | "held" | "stream" | undefined} */
  let mode;
  /** @type {Buffer[]} */
  let held = [];
  let heldBytes = 0;
  /** @type {zlib.Gzip | undefined} */
  let gzip;

  /** @param {unknown} chunk @param {BufferEncoding | undefined} encoding */
  const bytesOf = (chunk, encoding) =>
    typeof chunk === "string" ? Buffer.from(chunk, encoding) : Buffer.from(/** @type {Uint8Array} */ (chunk));

  /**
   * Decide, once the status and headers are final, how this answer goes out.
   * @param {number} length the body's length when known (Content-Length, or all of it at end)
   */
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
    else startStream();
  }

  function startStream() {
    mode = "stream";
    markGzip(res);
    const stream = zlib.createGzip();
    gzip = stream;
    stream.on("data", (/** @type {Buffer} */ data) => {
      if (!write.call(res, data)) stream.pause();
    });
    res.on("drain", () => stream.resume());
    res.on("close", () => stream.destroy());
  }

  /** Held bytes that grew too large: compress them as a stream from here on. */
  function streamHeld() {
    res.removeHeader("etag");
    startStream();
    writeHead.call(res, res.statusCode);
    for (const chunk of held) gzip?.write(chunk);
    held = [];
  }

  // Node sends implicit headers through this.writeHead(statusCode), so every path comes here. An
  // explicit writeHead only records the status and headers: how the answer goes out is decided at
  // the first write, flush or end, when the body (or its first chunk) is known.
  /** @type {any} */ (res).writeHead = function (
    /** @type {number} */ statusCode,
    /** @type {any} */ reason,
    /** @type {any} */ headers,
  ) {
    if (mode !== undefined) return mode === "held" ? res : writeHead.apply(res, /** @type {any} */ (arguments));
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

  /** The first write or flush: decide, and send the head unless the answer is held. */
  function begin() {
    decide();
    if (mode !== "held") writeHead.call(res, res.statusCode);
  }

  res.flushHeaders = function () {
    if (mode === undefined) begin();
    if (mode !== "held") flushHeaders.call(res);
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
    if (mode === "held") {
      held.push(bytes);
      heldBytes += bytes.length;
      if (heldBytes > MAX_HELD_BYTES) streamHeld();
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
    // Ended before anything was written: the whole body is this chunk (Node sets Content-Length
    // itself when it goes out plain).
    if (mode === undefined) decide(chunk == null ? 0 : bytesOf(chunk, encoding).length);
    if (mode === "plain") return end.call(res, chunk, encoding, callback);
    if (chunk != null) {
      if (mode === "held") held.push(bytesOf(chunk, encoding));
      else gzip?.write(bytesOf(chunk, encoding));
    }
    if (mode === "held") {
      const body = Buffer.concat(held);
      held = [];
      if (body.length < THRESHOLD_BYTES) {
        res.setHeader("Content-Length", body.length);
        writeHead.call(res, res.statusCode);
        return end.call(res, body, callback);
      }
      const compressed = memo.gzip(String(res.getHeader("etag")), body);
      markGzip(res);
      res.setHeader("Content-Length", compressed.length);
      writeHead.call(res, res.statusCode);
      return end.call(res, compressed, callback);
    }
    const stream = /** @type {zlib.Gzip} */ (gzip);
    stream.once("end", () => end.call(res, callback));
    stream.end();
    return res;
  };
}
