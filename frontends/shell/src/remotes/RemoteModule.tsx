import { Component, Suspense, lazy, useState } from 'react';
import type { ComponentType, ErrorInfo, ReactNode } from 'react';
import { Button, Callout, RefreshIcon, Skeleton } from '@noted/ui';
import { useTranslation } from 'react-i18next';
import { log } from '../log';

interface BoundaryProps {
  message: string;
  retryLabel: string;
  onRetry: () => void;
  onError?: (error: unknown) => void;
  frame: (placeholder: ReactNode) => ReactNode;
  children: ReactNode;
}

interface BoundaryState {
  failed: boolean;
}

/** Third layer: whatever the remote does, the failure stays inside this area. */
class RemoteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false };

  static getDerivedStateFromError(): BoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    log.error('A remote module failed to load or to render.', {
      error,
      componentStack: info.componentStack,
    });
    this.props.onError?.(error);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return this.props.frame(
      <Callout
        tone="danger"
        role="alert"
        className="remote-error"
        actions={
          <Button size="sm" icon={RefreshIcon} onClick={this.props.onRetry}>
            {this.props.retryLabel}
          </Button>
        }
      >
        {this.props.message}
      </Callout>,
    );
  }
}

export interface RemoteModuleProps<P extends object> {
  /** Loads the exposed module; called again on every Retry. */
  load: () => Promise<{ default: ComponentType<P> }>;
  props: P;
  /** Which area it is, for the messages (`remote.<name>` in the shell message set). */
  name: 'notes' | 'sharedNote' | 'data' | 'billing' | 'marketing';
  /** Told of a failure, e.g. to reload the page when a new build replaced the remote's code. */
  onError?: (error: unknown) => void;
  /**
   * Wraps what stands in for the module while it loads or after it failed: the frame of a
   * dialog the module draws itself once loaded, say.
   */
  frame?: (placeholder: ReactNode) => ReactNode;
  /** How many grey cards stand in while it loads. */
  blocks?: number;
}

const unframed = (placeholder: ReactNode) => placeholder;

export function RemoteModule<P extends object>({
  load,
  props,
  name,
  onError,
  frame = unframed,
  blocks = 3,
}: RemoteModuleProps<P>) {
  const { t } = useTranslation('shell');
  const title = t(`remote.${name}`);
  // The lazy component lives here, above Suspense, because state of a component that suspends
  // on mount is thrown away. A retry makes a new one, so load() runs afresh instead of
  // replaying a rejected promise.
  const [slot, setSlot] = useState(() => ({ attempt: 0, Loaded: lazy(load) }));
  const retry = () => setSlot((current) => ({ attempt: current.attempt + 1, Loaded: lazy(load) }));
  const { Loaded } = slot;

  return (
    <RemoteErrorBoundary
      key={slot.attempt}
      message={t('remote.failed', { title })}
      retryLabel={t('remote.retry')}
      onRetry={retry}
      onError={onError}
      frame={frame}
    >
      <Suspense
        fallback={frame(<Skeleton blocks={blocks} label={t('remote.loading', { title })} />)}
      >
        <Loaded {...props} />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
