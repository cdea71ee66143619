import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf, type SheetColumn } from '../../lib/excel.js';
import { arrearsByRoom, arrearsRows, collection, monthFees, paymentStats, propertyByBuilding, REPORT_ROLES } from './reports.js';

/** Columns as [header, key] pairs: every report row is a flat record of texts and numbers. */
const cols = (pairs: Array<[string, string]>): SheetColumn<Record<string, unknown>>[] =>
  pairs.map(([header, key]) => ({ header, value: (r) => r[key] as string | number }));

const feereportexport = defineExport('feereportexport', {
  roles: REPORT_ROLES,
  summary:
    '导出收费报表为 Excel：report = fees_count | fees_count_nopay | month_fees | paymentstatis | propertypaystatis，其余字段同该报表',
  filename(input) {
    switch (input.report) {
      case 'fees_count':
        return `收费统计_${input.start_period}_${input.end_period}.xlsx`;
      case 'fees_count_nopay':
        return '欠费统计.xlsx';
      case 'month_fees':
        return `月度收费_${input.year}.xlsx`;
      case 'paymentstatis':
        return `收款统计_${input.start_date}_${input.end_date}.xlsx`;
      case 'propertypaystatis':
        return `物业费收缴_${input.period}.xlsx`;
    }
  },
  async check({ db, rid }, input) {
    if (input.report === 'fees_count_nopay') await refuseOversizedExport(db, arrearsByRoom(db, rid, input));
  },
  async sheet(scope, input) {
    switch (input.report) {
      case 'fees_count': {
        const r = await collection(scope.db, scope.rid, input);
        return sheetOf(
          '收费统计',
          cols([
            ['收费项目', 'title'],
            ['账期', 'period'],
            ['账单数', 'bill_count'],
            ['应收', 'receivable'],
            ['实收', 'received'],
            ['欠费', 'arrears'],
            ['收缴率%', 'rate'],
          ]),
          [...r.items, { title: '合计', ...r.totals }] as unknown as Record<string, unknown>[],
        );
      }
      case 'fees_count_nopay': {
        const rooms = arrearsByRoom(scope.db, scope.rid, input);
        const rows = await arrearsRows(scope.db, scope.rid, rooms.orderBy('b.hid').limit(EXPORT_MAX), 'hid').execute();
        return sheetOf(
          '欠费统计',
          cols([
            ['房屋', 'address'],
            ['业主', 'owner_name'],
            ['电话', 'mobile'],
            ['欠费账单数', 'bill_count'],
            ['欠费合计', 'arrears'],
            ['0-30天', 'd0_30'],
            ['31-90天', 'd31_90'],
            ['91-180天', 'd91_180'],
            ['181-365天', 'd181_365'],
            ['365天以上', 'd365_plus'],
          ]),
          rows as unknown as Record<string, unknown>[],
        );
      }
      case 'month_fees': {
        const r = await monthFees(scope.db, scope.rid, input.year);
        return sheetOf(
          '月度收费',
          cols([
            ['月份', 'month'],
            ['应收', 'receivable'],
            ['已收', 'received'],
            ['当月收款', 'collected'],
            ['当月退款', 'refunded'],
            ['收缴率%', 'rate'],
          ]),
          r.items as unknown as Record<string, unknown>[],
        );
      }
      case 'paymentstatis': {
        const r = await paymentStats(scope.db, scope.rid, input);
        return sheetOf(
          '收款统计',
          cols([
            ['分组', 'label'],
            ['笔数', 'count'],
            ['实收', 'amount'],
            ['余额抵扣', 'balance_used'],
          ]),
          r.items as unknown as Record<string, unknown>[],
        );
      }
      case 'propertypaystatis': {
        const r = await propertyByBuilding(scope.db, scope.rid, input.period);
        return sheetOf(
          '物业费收缴',
          cols([
            ['楼栋', 'building_title'],
            ['户数', 'rooms'],
            ['已缴户数', 'paid_rooms'],
            ['应收', 'receivable'],
            ['实收', 'received'],
            ['欠费', 'arrears'],
            ['收缴率%', 'rate'],
          ]),
          [...r.items, { building_title: '合计', ...r.totals }] as unknown as Record<string, unknown>[],
        );
      }
    }
  },
});

export const reportExportMethods = [feereportexport];
