import { BrandMark } from '@noted/ui';
import { Link } from '@noted/router';

/** The mark and the name, leading home. */
export function Brand({ compact = false }: { compact?: boolean }) {
  return (
    <Link className="brand" to="/" aria-label={compact ? 'Noted' : undefined}>
      <BrandMark />
      {compact ? null : <span className="brand-name">Noted</span>}
    </Link>
  );
}
