/** Join class names, skipping the empty ones: `cx("px-3", isActive && "bg-brand-50")`. */
export function cx(...parts: (string | false | null | undefined)[]): string {
  return parts.filter(Boolean).join(" ");
}
