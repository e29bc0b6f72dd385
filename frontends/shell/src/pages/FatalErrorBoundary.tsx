import { Component, type ErrorInfo, type ReactNode } from 'react';
import { log } from '../log';
import { ErrorLayout } from '../layout/Layouts';
import { ErrorPage } from './ErrorPage';

interface State {
  error?: unknown;
}

/**
 * The last line: a page that crashed outside any narrower boundary shows the error page
 * (status 500) instead of a blank screen. Navigating elsewhere (`resetKey`) tries again.
 */
export class FatalErrorBoundary extends Component<
  { resetKey: string; onError?: (error: unknown) => void; children: ReactNode },
  State
> {
  override state: State = {};

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    log.error('A page failed.', { error, componentStack: info.componentStack });
    this.props.onError?.(error);
  }

  override componentDidUpdate(previous: { resetKey: string }): void {
    if (previous.resetKey !== this.props.resetKey && this.state.error !== undefined) {
      this.setState({ error: undefined });
    }
  }

  override render(): ReactNode {
    if (this.state.error === undefined) return this.props.children;
    const { error } = this.state;
    return (
      <ErrorLayout>
        <ErrorPage
          status={500}
          description={error instanceof Error ? error.message : String(error)}
          onReload={() => window.location.reload()}
        />
      </ErrorLayout>
    );
  }
}
