/** Route titles of the fees area, keyed like 'route.<name>' without the prefix. */
export const feesTitles = {
  'zh-CN': {
    fees: '收费管理', feebilllist: '账单列表', feebillworkadd: '生成账单', payment: '收费记录', feeitemlist: '收费项目',
    feeitemadd: '新增收费项目', feeitemedit: '编辑收费项目', feeitemcatelist: '费用类型', bindfee: '收费绑定',
    printReceipt: '打印收据', cashier: '收银台', refundlist: '退款审核', feebillcall: '催缴管理', print_billcall: '打印催缴单',
    print_billcallmx: '打印催缴明细', feeimportlist: '历史账单导入', feecounts: '收费报表', fees_count: '收费统计',
    fees_count_nopay: '欠费统计', month_fees: '月度收费', paymentstatis: '收款统计', propertypaystatis: '物业费收缴',
    propertypaylog: '物业费缴费明细', financereport: '财务报表',
    quickpay: '快捷收费', meterreading: '抄表录入', setfees: '收费设置',
  },
  en: {
    fees: 'Fees', feebilllist: 'Bills', feebillworkadd: 'Generate bills', payment: 'Payments', feeitemlist: 'Fee items',
    feeitemadd: 'New fee item', feeitemedit: 'Edit fee item', feeitemcatelist: 'Cost types', bindfee: 'Fee bindings',
    printReceipt: 'Print receipt', cashier: 'Cashier', refundlist: 'Refunds', feebillcall: 'Dunning', print_billcall: 'Print notices',
    print_billcallmx: 'Print detailed notices', feeimportlist: 'Bill import', feecounts: 'Fee reports', fees_count: 'Collection',
    fees_count_nopay: 'Arrears', month_fees: 'Monthly fees', paymentstatis: 'Payment statistics', propertypaystatis: 'Property fee collection',
    propertypaylog: 'Property fee payments', financereport: 'Finance report',
    quickpay: 'Quick payment', meterreading: 'Meter readings', setfees: 'Fee settings',
  },
  es: {
    fees: 'Cobros', feebilllist: 'Facturas', feebillworkadd: 'Generar facturas', payment: 'Pagos', feeitemlist: 'Conceptos de cobro',
    feeitemadd: 'Nuevo concepto', feeitemedit: 'Editar concepto', feeitemcatelist: 'Tipos de cargo', bindfee: 'Asignaciones',
    printReceipt: 'Imprimir recibo', cashier: 'Caja', refundlist: 'Reembolsos', feebillcall: 'Avisos de deuda', print_billcall: 'Imprimir avisos',
    print_billcallmx: 'Imprimir avisos detallados', feeimportlist: 'Importar facturas', feecounts: 'Informes de cobros', fees_count: 'Recaudación',
    fees_count_nopay: 'Morosidad', month_fees: 'Cobros mensuales', paymentstatis: 'Estadística de pagos', propertypaystatis: 'Cuota de administración',
    propertypaylog: 'Pagos de administración', financereport: 'Informe financiero',
    quickpay: 'Cobro rápido', meterreading: 'Lecturas de contador', setfees: 'Ajustes de cobro',
  },
};
