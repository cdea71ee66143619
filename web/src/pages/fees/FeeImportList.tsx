import ImportPanel from './ImportPanel';

/** Historical bill import (/fees/feeimportlist): template, upload, progress, its log and error reports. */
export default function FeeImportList() {
  return <ImportPanel kind="bills" />;
}
