/** The dashboard's words for the DSA notice and action (staff see English; readers get the catalogues). */
const CATEGORY_LABELS = new Map<string, string>([
  ["STATEMENT_CATEGORY_ILLEGAL_OR_HARMFUL_SPEECH", "Illegal or harmful speech"],
  ["STATEMENT_CATEGORY_CYBER_VIOLENCE", "Cyber violence"],
  ["STATEMENT_CATEGORY_PROTECTION_OF_MINORS", "Protection of minors"],
  ["STATEMENT_CATEGORY_SCAMS_AND_FRAUD", "Scams and fraud"],
  ["STATEMENT_CATEGORY_INTELLECTUAL_PROPERTY_INFRINGEMENTS", "Intellectual property infringement"],
  ["STATEMENT_CATEGORY_DATA_PROTECTION_AND_PRIVACY_VIOLATIONS", "Data protection and privacy violation"],
  ["STATEMENT_CATEGORY_VIOLENCE", "Violence"],
  ["STATEMENT_CATEGORY_RISK_FOR_PUBLIC_SECURITY", "Risk to public security"],
  ["STATEMENT_CATEGORY_NOT_SPECIFIED_NOTICE", "Other illegal content (not specified)"],
  ["STATEMENT_CATEGORY_OTHER_VIOLATION_TC", "Breach of the community guidelines only"],
]);

const OTHER_LABELS = new Map<string, string>([
  ["remove", "Remove (disable) the comment"],
  ["restrict", "Restrict its visibility"],
  ["none", "No action"],
  ["legal", "Legal (a law)"],
  ["terms", "Terms (community guidelines)"],
  ["author", "Comment's author"],
  ["notifier", "Notifier"],
  ["upheld", "Upheld"],
  ["reversed", "Reversed"],
]);

export function dsaLabel(key: string): string {
  return CATEGORY_LABELS.get(key) ?? OTHER_LABELS.get(key) ?? key;
}
