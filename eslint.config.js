import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'e2e/screenshots/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.test.ts', '**/*.e2e.ts', 'server/src/test/**', 'e2e/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // A list page is a ResourcePage (components/resource) or built from its hooks; antd's Table is
    // used directly only by the tuned or custom screens below (reports, the cashier, imports' error
    // tables, the drawer's tabs, lists not described as resources yet). Adding a screen here is a
    // decision for review, not a way around the rule.
    files: ['web/src/pages/**/*.{ts,tsx}'],
    ignores: [
      'web/src/pages/fees/Cashier.tsx',
      'web/src/pages/fees/FeeBillWorkAdd.tsx',
      'web/src/pages/fees/QuickPay.tsx',
      // the current shift's totals by method and its receipts (a summary, as the desk's); its hand-overs are a TablePage
      'web/src/pages/fees/ShiftPage.tsx',
      'web/src/pages/fees/reports/**',
      // 成本统计: categories and items × months with totals and charts, as the fee reports
      'web/src/pages/fees/costs/CostCount.tsx',
      // 签约回款月报: a year's months with totals and a chart, as the fee reports
      'web/src/pages/crm/contracts/Monthly.tsx',
      'web/src/pages/owners/MemberImport.tsx',
      'web/src/pages/owners/drawer/HouseTab.tsx',
      'web/src/pages/structure/BuildingImport.tsx',
      'web/src/pages/structure/ImportLog.tsx',
      'web/src/pages/structure/LeaderRegions.tsx',
      'web/src/pages/structure/RegionDelayLog.tsx',
      'web/src/pages/structure/RoomList.tsx',
      // the dictionary: types beside their items, half of which are the code's values (renamed, never added)
      'web/src/pages/setup/DictList.tsx',
      // the duty roster's month grid: staff by day of the month, not a list of records
      'web/src/pages/setup/ScheduleList.tsx',
      // the staff scores: a report (per-item averages by period, chart) and its details drawer
      'web/src/pages/steward/ScoreList.tsx',
      // 投诉统计: a report (figures by type, category or handler, totals, chart), as the fee reports
      'web/src/pages/steward/ComplaintCount.tsx',
      // the repair figures: a report (grouped figures with totals and a chart), as the fee reports
      'web/src/pages/steward/RepairCount.tsx',
      // the parking reports: a totals row and a chart over one answer, not a paged list
      'web/src/pages/carpark/ParkingIncome.tsx',
      'web/src/pages/carpark/ParkingOccupancy.tsx',
      // a lot's gate texts: the seven events' words edited in place beside the lot's booths and lanes, not a list of records
      'web/src/pages/carpark/LotList.tsx',
      // the fee standards' versions and the calculator's 24-hour windows: a standard's history and a breakdown, not lists of records
      'web/src/pages/carpark/TempFeeList.tsx',
      // a stay's price by 24-hour window (the calculator's and the booth's): a breakdown, not a list of records
      'web/src/pages/carpark/FeeBreakdown.tsx',
      // the booth console: the lanes, the decision at hand, the cars inside and the gate log of one booth at a glance
      'web/src/pages/carpark/BoothConsole.tsx',
      // the door simulator's person store, a device's command log and a grant's devices: small read-only tables beside a console or a detail
      'web/src/pages/access/AccessSim.tsx',
      'web/src/pages/access/DeviceList.tsx',
      'web/src/pages/access/grantParts.tsx',
      // the patrol report: totals, per plan and day, per guard, the points missed most, by hour: one answer, not a paged list
      'web/src/pages/security/PlanReport.tsx',
      // an invoice's preview, lines and an application's lines: small read-only tables inside the issue dialog and the detail drawers
      'web/src/pages/invoice/parts.tsx',
      // a member card's balance and points ledgers: a small paged table inside the card's detail drawer
      'web/src/pages/cards/CardList.tsx',
      // the card reports: figures by day, store or operator with totals and a chart, what the members hold, the coupons' uses (as the fee reports)
      'web/src/pages/cards/reports/**',
      // a meter's readings and commands in its detail drawer, the simulator's meters in its drawer, a deduction's tier breakdown, the usage report (figures by month, kind and building with a chart)
      'web/src/pages/meters/meterParts.tsx',
      'web/src/pages/meters/meterSim.tsx',
      'web/src/pages/meters/MeterBillLogs.tsx',
      'web/src/pages/meters/MeterReport.tsx',
      // the charging piles: a pile's ports with the simulator's controls, a session's price by hour and meter values, the sessions, the reconciliation, the report and the month cards' orders
      'web/src/pages/charging/parts.tsx',
      'web/src/pages/charging/OrderList.tsx',
      'web/src/pages/charging/ReconList.tsx',
      'web/src/pages/charging/ReportPage.tsx',
      'web/src/pages/charging/CardList.tsx',
      // the group fee summary: a report (a row per community with a total row, a trend and the community's report in a drawer), as the fee reports
      'web/src/pages/leader/FeeSummary.tsx',
      // the group's payment merchants: a settings screen (every merchant of the group, at most one per community and kind, and the communities' fallback matrix), not a paged list
      'web/src/pages/leader/SetPay.tsx',
      // four fixed scenes edited in place (支付渠道), not a list
      'web/src/pages/leader/SetChannel.tsx',
      // the six payment methods of the system with the group's rules (支付方式), edited in place, not a list
      'web/src/pages/leader/PayTypeList.tsx',
      // the group's own ways beside them, from the same answer (a handful, never paged), added and edited in a dialog
      'web/src/pages/leader/PayMethods.tsx',
      // 应用目录: the twelve services of the fixed catalogue with the group's settings (one answer), and one's per-community detail, not paged lists
      'web/src/pages/leader/ApplysList.tsx',
      'web/src/pages/leader/ApplysInfo.tsx',
      // 短信额度: the group's balance card, this month's use per community (one answer) and the quota ledger beside them
      'web/src/pages/leader/SmsQuota.tsx',
      // 消息设置: the fixed event × recipient × channel matrix edited in place (one answer), not a list; its log is a TablePage
      'web/src/pages/leader/MessageSet.tsx',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'antd',
              importNames: ['Table'],
              message:
                'A list page uses ResourcePage or its hooks (components/resource); a tuned screen goes on the allow-list in eslint.config.js.',
            },
          ],
          patterns: [
            {
              group: ['antd/es/table', 'antd/es/table/*', 'antd/lib/table', 'antd/lib/table/*'],
              message:
                'A list page uses ResourcePage or its hooks (components/resource); a tuned screen goes on the allow-list in eslint.config.js.',
            },
          ],
        },
      ],
    },
  },
  {
    // a role list is declared once, in the contract beside its area's resources (docs/resources.md)
    files: ['server/src/**/*.{ts,tsx}', 'web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'server/src/test/**', 'server/src/safety/**', 'server/src/db/seed.ts', 'server/src/modules/*/seed.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'VariableDeclarator[id.name=/^[A-Z][A-Z0-9_]*$/] > ArrayExpression > Literal[value=/^(admin|leader_admin|feecount|propertypaystatis|fees_count|businesscounts|financecount|apply|memberbasis|steward|notices|repairs|security|service|team|crm|care|rentroom|tenant|carpark|card|currents|parkcard|charginglist|devicelist|setup|setfees|invoicelist|fees|payment|cashier|preprint|printbill|call)$/]',
          message:
            'Role lists live in the contract (contract/src/<area>/roles.ts or beside the resource); import them from @wuye/contract.',
        },
      ],
    },
  },
);
