export { createLog, type Log } from './log';
export {
  ShellContext,
  checkoutSessionKey,
  signedInHintKey,
  useShell,
  type AccountState,
  type BillingView,
  type LiveStatus,
  type PendingChange,
  type SettingsSection,
  type ShellAccount,
  type ShellLive,
  type ShellOffline,
  type ShellServices,
} from './shell';
export { createLiveHub, useLiveMessages, useLiveReconnect, type LiveHub } from './live';
export { uiMessages } from './messages';
export {
  changeLocale,
  createI18n,
  defaultLocale,
  isLocale,
  loadMessageSet,
  locales,
  readLocale,
  rememberLocale,
  registerMessages,
  type Locale,
  type MessageLoader,
  type Messages,
} from './i18n/i18n';
export { useMessages } from './i18n/useMessages';
export {
  createToaster,
  defaultToastDurationMs,
  isToastType,
  toastReplaceGapMs,
  toastTypes,
  type Toast,
  type ToastAction,
  type ToastOptions,
  type Toaster,
  type ToastType,
} from './toast/toaster';
export { ToastArea, toastIconNames } from './toast/Toaster';
export { Dialog, type DialogProps } from './dialog/Dialog';
export { createConfirmer, type ConfirmOptions, type Confirmer } from './dialog/confirmer';
export { ConfirmHost } from './dialog/ConfirmHost';
export { ImagePreview, type ImagePreviewProps } from './image-preview/ImagePreview';
export {
  applyTheme,
  followSystemTheme,
  onThemeChanged,
  readThemePreference,
  saveThemePreference,
  themeChangedEvent,
  themePreferences,
  themeStorageKey,
  type ThemeChangedDetail,
  type ThemePreference,
} from './theme/theme';
export { ThemeChoice, ThemeToggle } from './theme/ThemeToggle';
export {
  ExternalNavigationRefused,
  createNavigator,
  createNoteOpener,
  currentNoteKey,
  takeCurrentNote,
  type Navigate,
  type NavigateOptions,
  type OpenNoteOptions,
} from './navigation/navigation';
export * from './icons/icons';
export {
  Button,
  IconButton,
  buttonClass,
  type ButtonLook,
  type ButtonProps,
  type ButtonSize,
  type ButtonVariant,
  type IconButtonProps,
} from './button/Button';
export { SearchInput, type SearchInputProps } from './forms/SearchInput';
export { Menu, type MenuAction, type MenuEntry, type MenuProps } from './menu/Menu';
export {
  Callout,
  EmptyState,
  PageHeader,
  Progress,
  Skeleton,
  TagChips,
  type CalloutProps,
  type CalloutTone,
  type EmptyStateProps,
  type PageHeaderProps,
  type ProgressProps,
  type SkeletonProps,
} from './content/Content';
export { errorCode, errorMessage } from './errors';
export {
  paymentsDisabledIn,
  planLacks,
  planLimitsOf,
  useAccountState,
  type PlanLimit,
} from './plan/plan';
export { FreeToUse, type FreeToUseProps } from './plan/FreeToUse';
export { BrandMark } from './brand/BrandMark';
export {
  formatDay,
  formatDuration,
  formatList,
  formatNumber,
  formatPrice,
  formatResetDay,
} from './format';
