import { useEffect } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';

/** Tab refresh (docs/product.md#visited-tabs): /redirect/<path> goes straight back to <path>, remounting the page. */
export default function Redirect() {
  const params = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  const target = `/${params['*'] ?? ''}${search}`;
  useEffect(() => {
    void navigate(target, { replace: true });
  }, [navigate, target]);
  return null;
}
