"use client";

/**
 * The demo story when the reader may read it (./paywall-demo.tsx): what grants it (the meter's
 * count, the subscription…), the grace banner of a failed renewal, the rest of the story, and the
 * demo tool that fails the next renewal.
 */
import type { AccessGrant } from "@/sdk/accesstype/types";

import type { View } from "./paywall-access";
import { FailRenewalTool, GraceBanner } from "./paywall-grace";
import type { Reader } from "./paywall-reader";
import type { DemoWords } from "./paywall-words";

/** The status line of a granted read: the meter's count, or what grants it. */
function grantNotice(grant: AccessGrant, words: DemoWords): string {
  switch (grant.grantReason) {
    case "METERING":
      return grant.data.isLast
        ? words.t("demo.lastFreeStory")
        : words.t("demo.freeStory", { n: grant.data.numberRemaining ?? 0 });
    case "SUBSCRIBER":
      return words.t("access.subscriber");
    case "ASSET":
      return words.t("access.asset");
    case "LOGGED_IN":
      return words.t("access.loggedIn");
    default:
      return words.t("access.free");
  }
}

export function GrantedStory(props: {
  view: Extract<View, { kind: "granted" }>;
  words: DemoWords;
  accountKey: string;
  /** The demo tools, when on and a reader is signed in with the SDK loaded. */
  tools: { reader: Reader; onRenewalFailed: () => void } | null;
}) {
  const { view, words, tools } = props;
  return (
    <>
      {view.grace ? <GraceBanner grace={view.grace} words={words} /> : null}
      <p className="rounded-md bg-green-50 p-3 text-sm text-green-900" role="status">
        {grantNotice(view.grant, words)}
      </p>
      <div data-testid="story-rest" className="space-y-4">
        {view.paragraphs.map((p, i) => (
          <p key={i}>{p}</p>
        ))}
      </div>
      {tools && view.grant.grantReason === "SUBSCRIBER" && !view.grace ? (
        <FailRenewalTool
          accountKey={props.accountKey}
          jwt={tools.reader.jwt}
          words={words}
          onDone={tools.onRenewalFailed}
        />
      ) : null}
    </>
  );
}
