import { lazy, Suspense, useState } from 'react';
import { anyHostDialogOpen, useDialogs } from '../stores/dialogs';

const DialogHost = lazy(() => import('../shell/dialogs/DialogHost'));

/** Loads the dialog chunk the first time a shell dialog opens. */
export default function DialogHostGate() {
  const anyOpen = useDialogs(anyHostDialogOpen);
  const [wanted, setWanted] = useState(false);
  if (anyOpen && !wanted) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <DialogHost />
    </Suspense>
  ) : null;
}
