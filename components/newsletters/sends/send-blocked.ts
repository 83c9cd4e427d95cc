/**
 * Why the story editor's newsletter buttons are disabled (story-newsletter-panel.tsx): each disabled
 * button points at this text (aria-describedby) and the panel shows it.
 */

/** Why "Send test" cannot be used now, or null. Pure. */
export function testBlockedReason(args: { chosen: number; addresses: number }): string | null {
  if (args.chosen === 0) return "Choose a newsletter to send a test of.";
  if (args.addresses === 0) return "Give at least one test address.";
  return null;
}

/** Why "Send" / "Publish and send" cannot be used now, or null. Pure. */
export function sendBlockedReason(args: { chosen: number; dirty: boolean; blocked: string | null }): string | null {
  if (args.blocked) return args.blocked;
  if (args.dirty) return "Save your changes before sending.";
  if (args.chosen === 0) return "Choose at least one newsletter.";
  return null;
}
