/**
 * The demo publisher's configuration (./demo-content.ts): site URL = APP_URL, image CDN =
 * Masthead's own /images, settings, SEO, theme, the menu of top sections, AMP config. Created
 * when missing; left as it is otherwise.
 */
import type { Db } from "../db/client";
import type { SeedReport } from "./demo";

/** The publisher configuration (site, language, theme, menu, AMP). */
export async function seedPublisherConfig(
  db: Db,
  options: { accountId: number; appUrl: string; menu: { title: string; url: string }[] },
  report: SeedReport,
) {
  const { accountId } = options;
  const appHost = new URL(options.appUrl).host;
  if (!(await db.publisherConfig.findUnique({ where: { accountId }, select: { accountId: true } }))) {
    await db.publisherConfig.create({
      data: {
        accountId,
        siteUrl: options.appUrl,
        cdnImage: `${appHost}/images`,
        languageIsoCode: "en",
        languageIetfCode: "en-GB",
        languageDirection: "ltr",
        settings: {
          title: "The Daily Masthead",
          description: "Independent news, analysis and culture, published with Masthead.",
          copyright: "© The Daily Masthead (demo content)",
          "publisher-logo": { url: null },
        },
        seo: {
          "meta-title": "The Daily Masthead",
          "meta-description": "Independent news, analysis and culture.",
          "meta-keywords": ["news", "politics", "world", "business", "technology", "sport", "culture"],
        },
        theme: { "primary-color": "#b3261e", "secondary-color": "#1d3557", logo: null, "cache-burst": 1 },
        socialLinks: { "twitter-url": "https://twitter.com/masthead_demo" },
        layout: {
          menu: options.menu.map(({ title, url }) => ({ "item-type": "section", title, url })),
        },
        ampConfig: {
          fonts: { primary: { family: "Georgia, serif" }, secondary: { family: "system-ui, sans-serif" } },
          colors: {
            primary: "#b3261e",
            secondary: "#1d3557",
            "header-background": "#ffffff",
            "footer-background": "#1d3557",
            "footer-text-color": "#ffffff",
            "section-text-color": "#b3261e",
          },
          "related-collection-id": "home",
          "invalid-elements-strategy": "redirect-to-web-version",
        },
      },
    });
    report.created.push("publisher config");
  }
}
