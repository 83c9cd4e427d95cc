import { createContext, useContext } from "react";

/**
 * True while the story open in the editor is one this person may read but not change (another
 * writer's draft; a contributor's story once submitted). The form's fieldsets disable its native
 * controls; the rich-text areas, which are not form controls, read this to stop being editable.
 */
export const StoryReadOnly = createContext(false);

export function useStoryReadOnly(): boolean {
  return useContext(StoryReadOnly);
}
