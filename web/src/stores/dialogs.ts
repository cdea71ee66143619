import { create } from 'zustand';

/**
 * Which shell dialogs are open. Kept outside React so the RPC client can force the renewal
 * dialog when any call answers AUTH_END (docs/product.md#errors).
 */
interface DialogState {
  renewalOpen: boolean;
  /** cannot be closed: no close button, no Esc, no mask click (docs/product.md#community-expiry) */
  renewalForced: boolean;
  expiryOpen: boolean;
  weakPasswordOpen: boolean;
  changePasswordOpen: boolean;
  sessionsOpen: boolean;
  errorLogOpen: boolean;
  openRenewal: (forced?: boolean) => void;
  closeRenewal: () => void;
  setExpiryOpen: (open: boolean) => void;
  setWeakPasswordOpen: (open: boolean) => void;
  setChangePasswordOpen: (open: boolean) => void;
  setSessionsOpen: (open: boolean) => void;
  setErrorLogOpen: (open: boolean) => void;
  reset: () => void;
}

const closed = {
  renewalOpen: false,
  renewalForced: false,
  expiryOpen: false,
  weakPasswordOpen: false,
  changePasswordOpen: false,
  sessionsOpen: false,
  errorLogOpen: false,
};

export const useDialogs = create<DialogState>()((set, get) => ({
  ...closed,
  openRenewal: (forced = false) => set({ renewalOpen: true, renewalForced: forced || get().renewalForced }),
  closeRenewal: () => {
    if (get().renewalForced) return;
    set({ renewalOpen: false });
  },
  setExpiryOpen: (expiryOpen) => set({ expiryOpen }),
  setWeakPasswordOpen: (weakPasswordOpen) => set({ weakPasswordOpen }),
  setChangePasswordOpen: (changePasswordOpen) => set({ changePasswordOpen }),
  setSessionsOpen: (sessionsOpen) => set({ sessionsOpen }),
  setErrorLogOpen: (errorLogOpen) => set({ errorLogOpen }),
  reset: () => set(closed),
}));

/** True when any dialog that lives in the shell's dialog host is open. */
export function anyHostDialogOpen(s: DialogState): boolean {
  return s.renewalOpen || s.expiryOpen || s.weakPasswordOpen || s.changePasswordOpen || s.sessionsOpen || s.errorLogOpen;
}
