import LeaseForm from './LeaseForm';

/** The lease form as /crm/leaseadd opens it. */
export default function LeaseAdd() {
  return <LeaseForm mode="add" />;
}
