/**
 * A labelled progress bar: indeterminate (a moving band) until `value` of `max` is known. The
 * label is the bar's accessible name and is shown above it.
 */
export function Progress({ label, value, max }: { label: string; value?: number; max?: number }) {
  const known = value !== undefined && max !== undefined && max > 0;
  const share = known ? Math.min(1, value / max) : 0;
  return (
    <div className="data-progress">
      <span className="data-progress-label" aria-hidden="true">
        {known ? null : <span className="ui-spinner" />}
        {label}
      </span>
      <span
        className="data-progress-bar"
        role="progressbar"
        aria-label={label}
        data-determinate={known ? '' : undefined}
        {...(known ? { 'aria-valuenow': value, 'aria-valuemin': 0, 'aria-valuemax': max } : {})}
      >
        <span style={known ? { width: `${Math.round(share * 100)}%` } : undefined} />
      </span>
    </div>
  );
}
