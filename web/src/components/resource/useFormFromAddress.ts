import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toastError } from '../../api/feedback';
import { useTags } from '../../stores/tags';

/**
 * A resource page whose form also has addresses of its own (…add, …edit?id=, the spec's route
 * table): the form the address names opens once, a new one or the row once the list has it, and
 * closing it there (saved or cancelled) goes back to the list's address, and the form's tab closes.
 */
export function useFormFromAddress<T extends { id: number }>({
  route,
  linkId,
  items,
  ready,
  form,
  listPath,
  missing,
}: {
  /** which address the page was opened at: the list's (null), its add or its edit address */
  route: 'add' | 'edit' | null;
  /** the row the edit address names (?id=), 0 for none */
  linkId: number;
  items: readonly T[];
  /** true once `items` would hold the row if it exists */
  ready: boolean;
  form: { open: (row?: T) => void; editing: unknown };
  listPath: string;
  /** the refusal when the named row does not exist: 分类不存在 */
  missing: string;
}): void {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const opened = useRef(false);
  useEffect(() => {
    if (!route || opened.current) return;
    if (route === 'add') {
      opened.current = true;
      form.open();
      return;
    }
    if (!linkId) {
      // no row named: the list itself
      opened.current = true;
      void navigate(listPath, { replace: true });
      return;
    }
    const row = items.find((r) => r.id === linkId);
    if (row) {
      opened.current = true;
      form.open(row);
    } else if (ready) {
      opened.current = true;
      toastError(missing);
      void navigate(listPath, { replace: true });
    }
  }, [route, form, items, ready, linkId, navigate, listPath, missing]);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (form.editing) wasOpen.current = true;
    else if (wasOpen.current && route) {
      useTags.getState().delView(pathname);
      void navigate(listPath, { replace: true });
    }
  }, [form.editing, route, navigate, listPath, pathname]);
}
