/** Reading a server-sent events stream in tests: its events one by one, each awaited with a deadline. */
export type SseMessage = { event: string; id?: string; data: unknown };

export class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = "";
  /** A read still under way when a wait timed out: the next wait takes its chunk. */
  private pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  private readonly ready: SseMessage[] = [];
  /** Comment lines (heartbeats) seen. */
  comments = 0;
  ended = false;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.reader = stream.getReader();
  }

  /** The next event (skipping `retry:` and comment lines); fails after `ms` without one. */
  async next(ms = 5_000): Promise<SseMessage> {
    const deadline = Date.now() + ms;
    while (this.ready.length === 0) {
      if (this.ended) throw new Error("the stream ended");
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no event within ${ms} ms`);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), left)));
      this.pending ??= this.reader.read();
      const read = await Promise.race([this.pending, timeout]);
      clearTimeout(timer);
      if (read === "timeout") throw new Error(`no event within ${ms} ms`);
      this.pending = undefined;
      if (read.done) {
        this.ended = true;
        continue;
      }
      this.take(this.decoder.decode(read.value, { stream: true }));
    }
    return this.ready.shift()!;
  }

  /** Nothing arrives within `ms` (an event that does fails the test). */
  async nothingWithin(ms: number): Promise<void> {
    const event = await this.next(ms).catch(() => null);
    if (event) throw new Error(`an event arrived: ${JSON.stringify(event)}`);
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }

  private take(text: string): void {
    this.buffer += text;
    let end: number;
    while ((end = this.buffer.indexOf("\n\n")) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const message: Partial<SseMessage> & { dataText?: string } = {};
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) this.comments++;
        else if (line.startsWith("event: ")) message.event = line.slice(7);
        else if (line.startsWith("id: ")) message.id = line.slice(4);
        else if (line.startsWith("data: ")) message.dataText = line.slice(6);
      }
      if (message.event)
        this.ready.push({ event: message.event, id: message.id, data: JSON.parse(message.dataText ?? "null") });
    }
  }
}
