/** The Noted mark: the app icon's N on its green tile, sized by where it stands. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg
      className={className ? `brand-mark ${className}` : 'brand-mark'}
      viewBox="0 0 512 512"
      aria-hidden="true"
      focusable="false"
    >
      <rect width="512" height="512" rx="120" fill="var(--color-accent)" />
      <path
        d="M160 368V144h42l108 154V144h42v224h-42L202 214v154z"
        fill="var(--color-accent-text)"
      />
    </svg>
  );
}
