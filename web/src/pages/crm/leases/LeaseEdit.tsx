import LeaseForm from './LeaseForm';

/** The lease form as /crm/leaseedit opens it. */
export default function LeaseEdit() {
  return <LeaseForm mode="edit" />;
}
