import { fail } from '../../http/errors.js';
import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf, type SheetColumn } from '../../lib/excel.js';
import { monthBills, monthLintingRows, toMonthLintingRow } from './monthLinting.js';
import { propertyNopayCount, propertyPayCount } from './panels.js';
import { arrearsByRoom, arrearsRows, feesCountReport, monthFees, paymentStats, propertyByBuilding, REPORT_ROLES } from './reports.js';

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
      case 'propertypaycount':
        return `物业费收缴统计_${input.start_period}_${input.end_period}.xlsx`;
      case 'propertynopaycount':
        return '物业费欠费统计.xlsx';
      case 'month_linting':
        return `月度收缴明细_${input.period}.xlsx`;
    }
  },
  async check({ db, rid }, input) {
    if (input.report === 'fees_count_nopay') await refuseOversizedExport(db, arrearsByRoom(db, rid, input));
    if (input.report === 'month_linting') await refuseOversizedExport(db, monthBills(db, rid, input).select('b.id'));
    if (input.report === 'propertypaycount' && input.start_period > input.end_period) fail('开始账期不能晚于结束账期');
  },
  async sheet(scope, input) {
    switch (input.report) {
      case 'fees_count': {
        const r = await feesCountReport(scope.db, scope.rid, input);
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
            ['已开票', 'invoiced'],
            ['未开票', 'uninvoiced'],
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
            ['欠费', 'arrears'],
            ['滞纳金', 'late_fee'],
            ['合计', 'total'],
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
          [
            // each own way of the group under its base, as the page shows it
            ...r.items.flatMap((i) => [i, ...i.ways.map((w) => ({ label: `其中：${w.name}`, count: w.count, amount: w.amount }))]),
            { label: '合计', count: r.total_count, amount: r.total_amount },
            { label: '其中计入实收', amount: r.counted_amount },
          ] as unknown as Record<string, unknown>[],
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
      case 'propertypaycount': {
        const r = await propertyPayCount(scope.db, scope.rid, input);
        return sheetOf(
          '物业费收缴统计',
          cols([
            ['楼栋', 'building_title'],
            ['单元', 'unit_title'],
            ['期初欠费', 'arrears_before'],
            ['应收', 'receivable'],
            ['实收', 'received'],
            ['其中当期', 'received_current'],
            ['其中清欠', 'recovered'],
            ['其中预收', 'prepaid'],
            ['收缴率%', 'rate'],
          ]),
          [
            ...r.items.map((i) => ({ ...i, unit_title: i.tid ? i.unit_title : '小计' })),
            { building_title: '合计', ...r.totals },
          ] as unknown as Record<string, unknown>[],
        );
      }
      case 'propertynopaycount': {
        const r = await propertyNopayCount(scope.db, scope.rid, input);
        return sheetOf(
          '物业费欠费统计',
          cols([
            ['楼栋', 'building_title'],
            ['单元', 'unit_title'],
            ['欠费户数', 'rooms'],
            ['欠费账单数', 'bill_count'],
            ['3个月内', 'm0_3'],
            ['3-6个月', 'm3_6'],
            ['6-12个月', 'm6_12'],
            ['12个月以上', 'm12_plus'],
            ['欠费', 'arrears'],
            ['滞纳金', 'late_fee'],
            ['合计', 'total'],
          ]),
          [
            ...r.items.map((i) => ({ ...i, unit_title: i.tid ? i.unit_title : '小计' })),
            { building_title: '合计', ...r.totals },
          ] as unknown as Record<string, unknown>[],
        );
      }
      case 'month_linting': {
        const bills = monthBills(scope.db, scope.rid, input);
        const rows = await monthLintingRows(scope.db, scope.rid, bills).orderBy('b.id').limit(EXPORT_MAX).execute();
        return sheetOf(
          '月度收缴明细',
          cols([
            ['房屋', 'address'],
            ['业主', 'owner_name'],
            ['收费项目', 'title'],
            ['账期', 'period'],
            ['应收', 'receivable'],
            ['实收', 'received'],
            ['未收', 'unpaid'],
            ['状态', 'status_ch'],
            ['缴费时间', 'paid_time'],
          ]),
          rows.map(toMonthLintingRow) as unknown as Record<string, unknown>[],
        );
      }
    }
  },
});

export const reportExportMethods = [feereportexport];
