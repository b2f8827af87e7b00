// Nothing blanks the panel: a screen or a modal that throws while drawing shows what failed in its own place,
// while the shell, the menu and the other screens keep working. A developer (and any dev build) also sees
// the manifest file and the component that threw.
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { DECLARED_ROLES } from '../../kernel/roles';
import { t } from '../core/i18n/i18n';
import { session } from '../core/session/session';
import { useStore } from '../core/store';

interface Props {
  /** What the boundary holds, for the title: "The Platforms screen", "The form". */
  what: string;
  /** The manifest file the part is drawn from, shown to developers. */
  file?: string;
  /** A modal's boundary draws its failure as a dialog with Close. */
  onClose?: () => void;
  children: ReactNode;
}

interface State {
  error: Error | null;
  component?: string;
}

/** The first component of React's component stack: the one that threw. */
function thrower(info: ErrorInfo): string | undefined {
  return /^\s*at (\S+)/m.exec(info.componentStack ?? '')?.[1];
}

export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    this.setState({ component: thrower(info) });
    console.error(`${this.props.what} failed`, error);
  }

  render() {
    const { error, component } = this.state;
    if (!error) return this.props.children;
    const report = <Failure what={this.props.what} error={error} file={this.props.file} component={component} />;
    if (!this.props.onClose) return report;
    return (
      <Dialog open onClose={this.props.onClose} fullWidth maxWidth="sm">
        <DialogTitle>{t('{what} failed', { what: this.props.what })}</DialogTitle>
        <DialogContent>{report}</DialogContent>
        <DialogActions>
          <Button onClick={this.props.onClose}>{t('Close')}</Button>
        </DialogActions>
      </Dialog>
    );
  }
}

function Failure({ what, error, file, component }: { what: string; error: Error; file?: string; component?: string }) {
  const role = useStore(session).user?.role;
  const details = import.meta.env.DEV || (role !== undefined && DECLARED_ROLES.failureDetails.includes(role));
  return (
    <Alert severity="error" data-testid="error-boundary">
      <AlertTitle>{t('{what} could not be shown', { what })}</AlertTitle>
      {error.message}
      {details && (file || component) && (
        <div data-testid="error-boundary-where">
          {[file && t('Manifest: {file}', { file }), component && t('Component: {component}', { component })].filter(Boolean).join(' · ')}
        </div>
      )}
    </Alert>
  );
}
