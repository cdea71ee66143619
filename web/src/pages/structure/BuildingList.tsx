import { Button } from 'antd';
import { Link, useNavigate } from 'react-router';
import type { Building } from '@wuye/contract';
import { building } from '@wuye/contract/structure';
import { ResourcePage } from '../../components/resource';

/** buildinglist: buildings with their unit and room counts, each a link to those lists. */
export default function BuildingList() {
  const navigate = useNavigate();
  return (
    <ResourcePage
      resource={building}
      toolbar={
        <Button onClick={() => void navigate('/buildingimport')} data-testid="building-import">
          批量导入
        </Button>
      }
      columns={{
        unit_count: { render: (n: number, row: Building) => <Link to={`/unitlist?bid=${row.id}`}>{n}</Link> },
        room_count: { render: (n: number, row: Building) => <Link to={`/roomlist?bid=${row.id}`}>{n}</Link> },
      }}
    />
  );
}
