/**
 * The guest captcha, solved in the browser: ALTCHA v2's PBKDF2 proof of work (the algorithm of
 * altcha-lib's `solveChallenge`, which only ships for Node.js): the password is the nonce's bytes
 * followed by the counter as a big-endian uint32, the salt the salt's bytes; the answer is the
 * first counter whose derived key starts with `keyPrefix`. Run in Web Workers (the frame script
 * itself, started as a worker), counters interleaved between them, so the page stays responsive.
 */
type CaptchaParameters = {
  algorithm: string;
  nonce: string;
  salt: string;
  cost: number;
  keyLength: number;
  keyPrefix: string;
};
export type CaptchaChallenge = { parameters: CaptchaParameters; signature: string };
type CaptchaSolution = { counter: number; derivedKey: string };

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function toHex(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += (b < 16 ? "0" : "") + b.toString(16);
  return s;
}

/** Counters start, start + step, start + 2 step…, until one fits or `deadline` (ms since epoch) passes. */
export async function solveRange(
  p: CaptchaParameters,
  start: number,
  step: number,
  deadline: number,
): Promise<CaptchaSolution | null> {
  if (p.algorithm !== "PBKDF2/SHA-256") return null;
  const nonce = fromHex(p.nonce);
  const salt = fromHex(p.salt);
  const prefix = p.keyPrefix.toLowerCase();
  const password = new Uint8Array(nonce.length + 4);
  password.set(nonce);
  const view = new DataView(password.buffer);
  for (let counter = start; counter <= 0xffffffff; counter += step) {
    if (counter % 64 === start % 64 && Date.now() > deadline) return null;
    view.setUint32(nonce.length, counter, false);
    const key = await crypto.subtle.importKey("raw", password, "PBKDF2", false, ["deriveBits"]);
    const bits = await crypto.subtle.deriveBits(
      { name: "PBKDF2", hash: "SHA-256", salt, iterations: p.cost },
      key,
      p.keyLength * 8,
    );
    const hex = toHex(new Uint8Array(bits));
    if (hex.startsWith(prefix)) return { counter, derivedKey: hex };
  }
  return null;
}

/** The worker's side: `{parameters, start, step, deadline}` in, `{solution}` out. */
export function serveWorker(scope: { onmessage: unknown; postMessage: (m: unknown) => void }): void {
  scope.onmessage = (event: MessageEvent) => {
    const { parameters, start, step, deadline } = event.data as {
      parameters: CaptchaParameters;
      start: number;
      step: number;
      deadline: number;
    };
    solveRange(parameters, start, step, deadline).then(
      (solution) => scope.postMessage({ solution }),
      () => scope.postMessage({ solution: null }),
    );
  };
}

/**
 * Solve a challenge with up to 4 workers started from `workerUrl` (falls back to this thread
 * when workers cannot start). Resolves to the `captcha_response` the comments API takes.
 */
export async function solveCaptcha(challenge: CaptchaChallenge, workerUrl: string | null): Promise<string | null> {
  const deadline = Date.now() + 90_000;
  const encode = (solution: CaptchaSolution) => btoa(JSON.stringify({ challenge, solution }));
  const concurrency = Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2));
  let workers: Worker[] = [];
  try {
    if (workerUrl) workers = Array.from({ length: concurrency }, () => new Worker(workerUrl));
  } catch {
    workers = [];
  }
  if (!workers.length) {
    const solution = await solveRange(challenge.parameters, 0, 1, deadline);
    return solution && encode(solution);
  }
  return new Promise((resolve) => {
    let pending = workers.length;
    const done = (value: string | null) => {
      for (const worker of workers) worker.terminate();
      resolve(value);
    };
    workers.forEach((worker, i) => {
      worker.onmessage = (event: MessageEvent) => {
        const solution = (event.data as { solution: CaptchaSolution | null }).solution;
        if (solution) done(encode(solution));
        else if (--pending === 0) done(null);
      };
      worker.onerror = () => {
        if (--pending === 0) done(null);
      };
      worker.postMessage({ parameters: challenge.parameters, start: i, step: workers.length, deadline });
    });
  });
}
