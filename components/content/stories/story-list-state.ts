"use client";

/**
 * The story list's place (./story-list.tsx): search, filters, sort and page, kept in the URL query
 * string (reload, Back from a story and a shared link restore it), and the search box that types
 * ahead of the URL.
 */
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";

import {
  listStateFromParams,
  listStateToParams,
  type StoryListState,
} from "@/server/publishing/editorial/story-finding.schema";

const SEARCH_DELAY_MS = 300;

export function useStoryListState() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  // The list's place lives in the URL; a copy here answers a click at once (the URL follows a
  // moment later), so a control shows its new value at once and a second change made before
  // the URL caught up builds on the first instead of replacing it. Any change of the URL (our own
  // write coming back, Back, a link) sets the copy.
  const urlQuery = params.toString();
  const [state, setLocalState] = useState(() => listStateFromParams(params));
  const [seenQuery, setSeenQuery] = useState(urlQuery);
  if (seenQuery !== urlQuery) {
    setSeenQuery(urlQuery);
    setLocalState(listStateFromParams(params));
  }

  /** Write the state to the URL (replacing the entry: Back leaves the list, not the last filter). */
  const setState = (patch: Partial<StoryListState>) => {
    const next = { ...state, page: 1, ...patch };
    setLocalState(next);
    const query = listStateToParams(next);
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  };

  // The search box types ahead of the URL; the URL follows after a pause. A change of the URL
  // from elsewhere (Back, a link) resets the box, but not the echo of what the box wrote.
  const [search, setSearch] = useState(state.q);
  const [pushed, setPushed] = useState(state.q);
  const [seenQ, setSeenQ] = useState(state.q);
  if (seenQ !== state.q) {
    setSeenQ(state.q);
    if (state.q !== pushed) {
      setSearch(state.q);
      setPushed(state.q);
    }
  }
  useEffect(() => {
    if (search === state.q) return;
    const timer = setTimeout(() => {
      setPushed(search);
      const query = listStateToParams({ ...state, q: search, page: 1 });
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, state, pathname, router]);

  const submitSearch = () => {
    setPushed(search);
    setState({ q: search });
  };
  const clearFilters = () => {
    setSearch("");
    setPushed("");
    // The copy too, at once: a filter picked before the URL comes back builds on the cleared list.
    setLocalState(listStateFromParams(new URLSearchParams()));
    router.replace(pathname, { scroll: false });
  };
  return { state, setState, search, setSearch, submitSearch, clearFilters };
}
