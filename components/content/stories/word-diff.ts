/**
 * A word-level diff of two texts, for the story editor's revision and conflict views. Pure, no
 * imports: the dashboard imports it.
 *
 * Texts are split into tokens (runs of word characters, runs of whitespace, single other
 * characters), the longest common subsequence of the two token lists is found (classic dynamic
 * programming, after trimming the common head and tail), and the result is a list of parts, each
 * "same", "added" (only in `after`) or "removed" (only in `before`), adjacent parts of one kind
 * merged. Joining the "same" and "removed" parts gives `before`; "same" and "added" give `after`.
 *
 * Above MAX_CELLS of table (two long, very different texts) the middle is reported as one removal
 * and one addition instead: still correct, only coarser, and never slow.
 */

export type DiffPart = { kind: "same" | "added" | "removed"; text: string };

const MAX_CELLS = 4_000_000;

/** Words, whitespace runs and single punctuation marks, in order; joined they give `text` back. */
export function tokenize(text: string): string[] {
  return text.match(/[\p{L}\p{N}_'’-]+|\s+|[^\p{L}\p{N}_'’\s-]/gu) ?? [];
}

function push(parts: DiffPart[], kind: DiffPart["kind"], text: string): void {
  if (!text) return;
  const last = parts[parts.length - 1];
  if (last && last.kind === kind) last.text += text;
  else parts.push({ kind, text });
}

export function wordDiff(before: string, after: string): DiffPart[] {
  const a = tokenize(before);
  const b = tokenize(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const parts: DiffPart[] = [];
  push(parts, "same", a.slice(0, head).join(""));
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const n = midA.length;
  const m = midB.length;
  if (n * m > MAX_CELLS) {
    push(parts, "removed", midA.join(""));
    push(parts, "added", midB.join(""));
  } else {
    // lcs[i * (m + 1) + j]: the LCS length of midA[i..] and midB[j..].
    const width = m + 1;
    const lcs = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * width + j] =
          midA[i] === midB[j]
            ? lcs[(i + 1) * width + j + 1]! + 1
            : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (midA[i] === midB[j]) {
        push(parts, "same", midA[i]!);
        i++;
        j++;
      } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) {
        push(parts, "removed", midA[i]!);
        i++;
      } else {
        push(parts, "added", midB[j]!);
        j++;
      }
    }
    while (i < n) push(parts, "removed", midA[i++]!);
    while (j < m) push(parts, "added", midB[j++]!);
  }
  push(parts, "same", a.slice(a.length - tail).join(""));
  return parts;
}

/** Whether a diff has any change. */
export function hasChanges(parts: readonly DiffPart[]): boolean {
  return parts.some((p) => p.kind !== "same");
}

/** Text of HTML for diffing: tags dropped (block ends as line breaks), the common entities decoded. */
export function htmlToDiffText(html: string): string {
  return html
    .replace(/<\s*br\s*\/?>/gi, "\n")
    .replace(/<\/(p|h[1-6]|li|blockquote|div)>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
