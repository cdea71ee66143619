import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import FullSpin from '../../components/FullSpin';
import { useUser } from '../../stores/user';
import { safeRedirect } from '../../utils/auth';

/**
 * Sign-in hand-over (docs/product.md#public-routes): another of the company's systems sends the user here with
 * ?token=...&side=community|group&redirect=/path; without a token it goes to the login page.
 */
export default function AuthRedirect() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  useEffect(() => {
    const token = params.get('token');
    const side = params.get('side') === 'group' ? 'group' : 'community';
    if (token) {
      useUser.getState().adoptToken(token, side);
      void navigate(safeRedirect(params.get('redirect')), { replace: true });
    } else {
      void navigate('/login', { replace: true });
    }
  }, [params, navigate]);
  return <FullSpin />;
}
