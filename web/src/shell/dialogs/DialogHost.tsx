import { lazy, Suspense } from 'react';
import { useDialogs } from '../../stores/dialogs';
import ChangePasswordDialog from './ChangePasswordDialog';
import ExpiryReminder from './ExpiryReminder';
import RenewalDialog from './RenewalDialog';
import WeakPasswordDialog from './WeakPasswordDialog';

const ErrorLogDialog = lazy(() => import('./ErrorLogDialog'));

/** The shell's dialogs, loaded the first time one opens. */
export default function DialogHost() {
  const errorLogOpen = useDialogs((s) => s.errorLogOpen);
  return (
    <>
      <WeakPasswordDialog />
      <ChangePasswordDialog />
      <ExpiryReminder />
      <RenewalDialog />
      {errorLogOpen && (
        <Suspense fallback={null}>
          <ErrorLogDialog />
        </Suspense>
      )}
    </>
  );
}
