/**
 * The EU DSA Transparency Database's statement categories a reader may name in an illegal-content
 * notice, each with the message that names it in the widgets' and the mail catalogues (the same
 * key in both); and the one only a moderator may choose, a breach of the community guidelines
 * (the mail catalogue's). Read by the comment widget's notice form and by the notice mails.
 */
export const DSA_CATEGORY_MESSAGES = [
  ["STATEMENT_CATEGORY_ILLEGAL_OR_HARMFUL_SPEECH", "dsaCatSpeech"],
  ["STATEMENT_CATEGORY_CYBER_VIOLENCE", "dsaCatCyberViolence"],
  ["STATEMENT_CATEGORY_PROTECTION_OF_MINORS", "dsaCatMinors"],
  ["STATEMENT_CATEGORY_SCAMS_AND_FRAUD", "dsaCatScams"],
  ["STATEMENT_CATEGORY_INTELLECTUAL_PROPERTY_INFRINGEMENTS", "dsaCatIntellectualProperty"],
  ["STATEMENT_CATEGORY_DATA_PROTECTION_AND_PRIVACY_VIOLATIONS", "dsaCatPrivacy"],
  ["STATEMENT_CATEGORY_VIOLENCE", "dsaCatViolence"],
  ["STATEMENT_CATEGORY_RISK_FOR_PUBLIC_SECURITY", "dsaCatPublicSecurity"],
  ["STATEMENT_CATEGORY_NOT_SPECIFIED_NOTICE", "dsaCatOther"],
] as const;

export const DSA_TERMS_CATEGORY_MESSAGE = ["STATEMENT_CATEGORY_OTHER_VIOLATION_TC", "dsaCatTerms"] as const;
