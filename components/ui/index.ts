/**
 * The dashboard's UI kit. Screens build from these instead of class strings of their own, so the
 * look (Tailwind, the brand colours of app/globals.css) and the accessibility (labels, roles, focus)
 * live in one place.
 */
export { Alert, ErrorAlert, type AlertTone } from "./alert";
export { Badge, Code, CodeBlock, CountBadge, type BadgeTone } from "./badge";
export { Button, ButtonLink, buttonClasses, type ButtonProps, type ButtonSize, type ButtonVariant } from "./button";
export { Checkbox, Fieldset, Radio, RadioChoices } from "./choice";
export { ConfirmDialog, ConfirmProvider, useConfirm, type ConfirmOptions } from "./confirm";
export { cx } from "./cx";
export { DateTime, formatDateTime, TimeZoneProvider, useDateTimeFormat, useTimeZone } from "./date-time";
export { DayRangeForm } from "./day-range-form";
export { DetailFacts, DetailList, DetailPanel, DetailSection } from "./detail-panel";
export { Dialog } from "./dialog";
export { EmptyState } from "./empty-state";
export { FileButton } from "./file-button";
export { FilterDisclosure } from "./filter-disclosure";
export { FormActions, FormField, useFieldControl } from "./form-field";
export { FormEnd, SubmitActions } from "./form-end";
export {
  FormatLocaleProvider,
  Money,
  MoneyFigures,
  useDayFormat,
  useFigureFormats,
  useFormatLocale,
  useMoneyFigures,
  useMoneyFormat,
  useMonthFormat,
} from "./formats";
export {
  FilterSelect,
  Input,
  SearchInput,
  Select,
  StatusFilter,
  Textarea,
  WholeNumberInput,
  type SelectOption,
} from "./input";
export { useLeaveGuard } from "./leave-guard";
export { LinkCard, LinkCards, TextLink, textLinkClasses } from "./link";
export { useAddForm } from "./add-form";
export { ListError, ListNotice, ListStatus } from "./list-notice";
export { ListPanel } from "./list-panel";
export { ErrorReference, LoadError, Loading, LoadMore, LoadState } from "./load-state";
export { NumberSettings, type NumberSetting } from "./number-settings";
export { PageHeader } from "./page-header";
export { Card, Panel, PanelFooter, PanelList, PanelSection } from "./panel";
export {
  errorCode,
  errorDetails,
  errorReference,
  fieldProblems,
  serverErrors,
  type FieldIssue,
  type ServerErrors,
} from "./server-errors";
export { SelectableList } from "./selectable-list";
export {
  numbersAsText,
  numbersFromText,
  savedNote,
  useOnSaved,
  useSettingsDraft,
  useThenRefetch,
  type DraftPanelProps,
} from "./settings-draft";
export { SettingsFormShell, SettingsLoader, type SettingsEditorProps } from "./settings-shell";
export { ShownOnce } from "./shown-once";
export { StatusMessage } from "./status-message";
export { TabNav } from "./tab-nav";
export { QueryTable, Table, type Column } from "./table";
export { useInBrowser } from "./in-browser";
