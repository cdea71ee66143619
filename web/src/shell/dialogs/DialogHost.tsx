import { lazy, Suspense } from 'react';
import { useDialogs } from '../../stores/dialogs';
import ChangePasswordDialog from './ChangePasswordDialog';
import ExpiryReminder from './ExpiryReminder';
import RenewalDialog from './RenewalDialog';
import WeakPasswordDialog from './WeakPasswordDialog';

const ErrorLogDialog = lazy(() => import('./ErrorLogDialog'));
const SessionsDialog = lazy(() => import('./SessionsDialog'));

/** The shell's dialogs, loaded the first time one opens. */
export default function DialogHost() {
  const errorLogOpen = useDialogs((s) => s.errorLogOpen);
  const sessionsOpen = useDialogs((s) => s.sessionsOpen);
  return (
    <>
      <WeakPasswordDialog />
      <ChangePasswordDialog />
      <ExpiryReminder />
      <RenewalDialog />
      {sessionsOpen && (
        <Suspense fallback={null}>
          <SessionsDialog />
        </Suspense>
      )}
      {errorLogOpen && (
        <Suspense fallback={null}>
          <ErrorLogDialog />
        </Suspense>
      )}
    </>
  );
}
