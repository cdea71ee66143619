import LeaseForm from './LeaseForm';

/** The lease form as /crm/rerent opens it. */
export default function Rerent() {
  return <LeaseForm mode="rerent" />;
}
