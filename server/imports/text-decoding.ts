/**
 * Bytes to text for the import readers (XML, CSV), strictly: a file whose bytes are not in the
 * encoding it uses (its byte-order mark's, its XML declaration's, else UTF-8) is refused whole,
 * naming the line and column of the first byte that does not decode (ImportFileError).
 *
 * The platform's decoder turns a byte that does not decode into U+FFFD; a file may also hold a
 * real U+FFFD (written as such). The two are told apart by counting: the U+FFFD the bytes hold
 * (UTF-8 EF BF BD, UTF-16 FD FF / FF FD) against those the decoder gave. The line named is that
 * of the first U+FFFD of the chunk where the counts part.
 */
import { ImportFileError } from "./types";

/** U+FFFD as each encoding writes it. */
const REPLACEMENT_BYTES = new Map<string, Buffer>([
  ["utf-8", Buffer.from([0xef, 0xbf, 0xbd])],
  ["utf-16le", Buffer.from([0xfd, 0xff])],
  ["utf-16be", Buffer.from([0xff, 0xfd])],
]);

/** Where a text position is: lines and columns from 1. */
export type TextPosition = { line: number; column: number };

/** Line and column of `index` in `text`, the text starting at `start`. */
export function positionIn(text: string, index: number, start: TextPosition): TextPosition {
  let line = start.line;
  let lineStart = -1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i;
  }
  return { line, column: lineStart === -1 ? start.column + index : index - lineStart };
}

/** A streaming decoder that refuses bytes not in its encoding (see the file's comment). */
export class StrictDecoder {
  private readonly decoder: TextDecoder;
  private readonly replacement: Buffer | undefined;
  private tail = Buffer.alloc(0);
  private held = 0;
  private given = 0;

  /** `name`: the file, in messages. ImportFileError when the platform cannot decode `encoding`. */
  constructor(
    readonly encoding: string,
    private readonly name: string,
  ) {
    try {
      this.decoder = new TextDecoder(encoding, { fatal: false, ignoreBOM: true });
    } catch {
      throw new ImportFileError(`${name}: its encoding "${encoding}" cannot be read (export it as UTF-8).`);
    }
    this.replacement = REPLACEMENT_BYTES.get(this.decoder.encoding);
  }

  /** The text of the next bytes (none: the end), which start at `at`; ImportFileError at a byte that does not decode. */
  decode(bytes: Buffer | null, at: TextPosition): string {
    const text = bytes ? this.decoder.decode(bytes, { stream: true }) : this.decoder.decode();
    if (bytes) this.held += this.replacementsIn(bytes);
    let replaced = 0;
    for (let i = text.indexOf("\uFFFD"); i !== -1; i = text.indexOf("\uFFFD", i + 1)) replaced++;
    this.given += replaced;
    if (this.given > this.held) {
      const where = positionIn(text, text.indexOf("\uFFFD"), at);
      throw new ImportFileError(
        `${this.name} is not in the encoding it uses (${this.decoder.encoding}): line ${where.line}, column ${where.column} holds bytes that do not decode. Nothing of it is imported: export it again as UTF-8.`,
      );
    }
    return text;
  }

  /** Real U+FFFDs whose last byte is in `bytes` (the end of the previous chunk kept for those it split). */
  private replacementsIn(bytes: Buffer): number {
    const pattern = this.replacement;
    if (!pattern) return 0;
    const window = this.tail.length ? Buffer.concat([this.tail, bytes]) : bytes;
    let count = 0;
    for (let i = window.indexOf(pattern); i !== -1; i = window.indexOf(pattern, i + pattern.length)) count++;
    this.tail = Buffer.from(window.subarray(Math.max(0, window.length - (pattern.length - 1))));
    return count;
  }
}
