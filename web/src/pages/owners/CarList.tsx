import { car } from '@wuye/contract/owners/cars';
import { ResourcePage } from '../../components/resource';

/** /basismembers/cars: cars bound to rooms, with plate checks (new-energy plates included). */
export default function CarList() {
  return <ResourcePage resource={car} title="住户车辆" />;
}
