import { Link } from 'react-router';
import type { Unit } from '@wuye/contract';
import { unit } from '@wuye/contract/structure';
import { ResourcePage } from '../../components/resource';

/** unitlist: units of the community, filtered by building (`?bid=` from the building list) and title. */
export default function UnitList() {
  return (
    <ResourcePage
      resource={unit}
      columns={{
        room_count: { render: (n: number, row: Unit) => <Link to={`/roomlist?bid=${row.bid}&tid=${row.id}`}>{n}</Link> },
      }}
    />
  );
}
