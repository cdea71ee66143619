import { Spin } from 'antd';

/** Whole-screen loading state (route chunks, user info). */
export default function FullSpin() {
  return (
    <div style={{ height: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }} data-testid="full-spin">
      <Spin size="large" />
    </div>
  );
}
