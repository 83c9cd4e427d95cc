/**
 * A hostile-input corpus for HTML and links, and a checker for what comes back: tests save these
 * into every HTML-bearing and URL-bearing field and assert that nothing unsafe reaches a reader.
 */
import { checkWebUrl } from "../web-url";

/** Markup that must never come back: scripts, event handlers, styles, frames, SVG, and links in every scheme disguise. */
export const HOSTILE_SNIPPETS = [
  "<img src=x onerror=alert(1)>",
  "<script>alert(1)</script>",
  '<a href="javascript:alert(1)">js</a>',
  '<a href="JaVaScRiPt:alert(1)">mixed case</a>',
  '<a href="&#106;avascript:alert(1)">decimal entity</a>',
  '<a href="&#x6A;avascript&colon;alert(1)">hex entity</a>',
  '<a href="java&#x09;script:alert(1)">tab entity</a>',
  '<a href="  javascript:alert(1)">leading space</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
  '<a href="vbscript:msgbox(1)">vbscript</a>',
  '<a href="//evil.example/">protocol-relative</a>',
  '<a href="https://user:pw@evil.example/">credentials</a>',
  "<svg onload=alert(1)><circle r=1 /></svg>",
  '<svg><a xlink:href="javascript:alert(1)"><text>svg link</text></a></svg>',
  '<iframe src="https://evil.example/"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<p style="background:url(javascript:alert(1))" onclick="alert(1)" onmouseover="alert(1)">styled</p>',
  "<style>body{background:url(javascript:alert(1))}</style>",
  "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  "<textarea><img src=x onerror=alert(1)></textarea>",
  "<xmp><img src=x onerror=alert(1)></xmp>",
  '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">go</button></form>',
  '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<a href="https://example.org/" onclick="alert(1)" target="_blank">link with handler</a>',
  "<!--<img src=x onerror=alert(1)>-->",
  '<img src="x` `<script>alert(1)</script>"` `>',
  "<scr<script>ipt>alert(1)</script>",
];

/** All of HOSTILE_SNIPPETS in one fragment. */
export const HOSTILE_HTML = HOSTILE_SNIPPETS.join("\n");

/** HOSTILE_SNIPPETS in fragments of at most `max` characters each (for fields with a length limit). */
export function hostileChunks(max: number): string[] {
  const chunks: string[] = [];
  for (const snippet of HOSTILE_SNIPPETS) {
    const last = chunks.at(-1);
    if (last !== undefined && last.length + snippet.length + 1 <= max)
      chunks[chunks.length - 1] = `${last}\n${snippet}`;
    else chunks.push(snippet);
  }
  return chunks;
}

/** Safe markup that must survive: the allow-list's tags and an http(s) and a mailto link. */
export const SAFE_HTML =
  '<p>Fine <strong>bold</strong> <em>em</em> <a href="https://example.org/ok">ok</a> <a href="mailto:desk@example.org">mail</a></p>';

/** Links that must be refused wherever a URL is stored. */
export const HOSTILE_URLS = [
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  " javascript:alert(1)",
  "java\tscript:alert(1)",
  "&#106;avascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+",
  "vbscript:msgbox(1)",
  "//evil.example/x",
  "/relative/path",
  "mailto:desk@example.org",
  "https://user:pw@evil.example/",
  "https://example.org/a\r\nb",
  "file:///etc/passwd",
];

const ALLOWED_TAGS = new Set(["p", "br", "strong", "em", "b", "i", "a", "ul", "ol", "li", "h2", "h3", "blockquote"]);
for (const tag of ["table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td"]) ALLOWED_TAGS.add(tag);
const CELL = new Set(["colspan", "rowspan"]);
const ALLOWED_ATTRIBUTES: Record<string, Set<string>> = {
  a: new Set(["href"]),
  blockquote: new Set(["class"]),
  td: CELL,
  th: CELL,
};

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", colon: ":", tab: "\t" };
const decode = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);?/gi, (entity, name: string) => {
    if (name[0] === "#")
      return String.fromCodePoint(
        name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : Number(name.slice(1)),
      );
    return NAMED[name.toLowerCase()] ?? entity;
  });

/** What is unsafe in an HTML fragment a front end would render: tags and attributes off the allow-list, unsafe links. */
function unsafeHtmlProblems(html: string): string[] {
  const problems: string[] = [];
  if (/<!--|<!\[|<\?/.test(html)) problems.push("comment or processing instruction");
  for (const match of html.matchAll(/<\s*(\/?)\s*([^\s>/]+)([^>]*)>?/g)) {
    const tag = match[2]!.toLowerCase();
    if (!ALLOWED_TAGS.has(tag)) {
      problems.push(`tag <${tag}>`);
      continue;
    }
    if (match[1]) continue;
    for (const attr of match[3]!.matchAll(/([^\s=/>]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g)) {
      const name = attr[1]!.toLowerCase();
      const raw = (attr[2] ?? "").replace(/^["']|["']$/g, "");
      if (!ALLOWED_ATTRIBUTES[tag]?.has(name)) problems.push(`attribute ${name} on <${tag}>`);
      else if (name === "href" && !checkWebUrl(decode(raw), { mailto: true }).ok) problems.push(`href ${raw}`);
    }
  }
  return problems;
}

const URL_KEY = /(?:^|[-_])(?:url|urls|href|src|link|links|uri)$|(?:Url|Urls|Href|Src|Link|Links|Uri)$/;

/** Every unsafe string in a value (a wire story, an author…): HTML problems, unsafe URLs under URL-like keys. */
export function unsafeStrings(value: unknown, path = ""): string[] {
  if (typeof value === "string") {
    const key = path.split(".").at(-1) ?? "";
    if (key === "embed-js") return unsafeStrings(Buffer.from(value, "base64").toString("utf8"), `${path}(decoded)`);
    if (URL_KEY.test(key) && value !== "" && !checkWebUrl(value).ok) return [`${path}: unsafe URL ${value}`];
    return unsafeHtmlProblems(value).map((problem) => `${path}: ${problem}`);
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => unsafeStrings(item, `${path}.${i}`));
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([key, item]) => unsafeStrings(item, path ? `${path}.${key}` : key));
  return [];
}
