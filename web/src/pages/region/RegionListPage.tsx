import { Button } from 'antd';
import { useNavigate } from 'react-router';
import RegionList from './RegionList';

/** /regionlist: the community picker on its own page (outside the layout). */
export default function RegionListPage() {
  const navigate = useNavigate();
  return (
    <div style={{ minHeight: '100vh', background: '#f0f2f5', padding: '40px 16px' }}>
      <div style={{ maxWidth: 760, margin: '0 auto' }}>
        <RegionList />
        <div style={{ textAlign: 'center', marginTop: 16 }}>
          <Button onClick={() => void navigate('/dashboard')}>返回首页</Button>
        </div>
      </div>
    </div>
  );
}
